import { workerData } from 'node:worker_threads';

/**
 * How many HTTP requests this process has taken, counted by its host (the service's onRequest hook
 * calls `requestTaken`; the offline tools take none). Work that can wait, a verification inside the
 * service, compares the count before and after a stretch of its own to know whether clients were
 * being served meanwhile, without knowing of any route (`HashPool`'s background mode). The count is
 * in shared memory, handed to worker threads in their `workerData.requests`: there a verification
 * runs whole, and reads the count the event loop keeps.
 */
const taken = new Int32Array(
  (workerData as { requests?: SharedArrayBuffer } | null)?.requests ?? new SharedArrayBuffer(4),
);

/** The memory the count is kept in, for a worker thread's `workerData.requests`. */
export const requestCount = taken.buffer;

export function requestTaken(): void {
  Atomics.add(taken, 0, 1);
}

export function requestsTaken(): number {
  return Atomics.load(taken, 0);
}
