import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { movable, type TaskTable } from './hash-pool';
import { requestsTaken } from './request-activity';

/** How often a background thread looks whether its service took a request. */
const WATCH_MS = 10;

/**
 * A thread of `HashPool`: runs the task of each message and answers with its id. Called by a pool's worker file.
 * A background thread runs at the lowest priority from the first request its service takes after it
 * started, so that a sale's request is scheduled before it; until then, with no request to yield
 * to, it runs as fast as the host's other threads. On Linux a nice value is a thread's own: this
 * lowers only this thread, not the host's event loop; and a thread may lower its own, not raise it
 * back, so it stays low for the rest of its life (a pool's threads live for one verification).
 */
export function serveTasks(tasks: TaskTable): void {
  if ((workerData as { background?: boolean } | undefined)?.background) lowerOnRequests();
  parentPort?.on(
    'message',
    ({ id, task, input }: { id: number; task: string; input: never }) => void run(id, task, input),
  );

  async function run(id: number, task: string, input: never): Promise<void> {
    try {
      const output = await tasks[task](input);
      // A batch of lines goes back as it came: moved, not copied. A task may answer null (the service's whole verification).
      const bytes = (output as { bytes?: Uint8Array } | null)?.bytes;
      parentPort?.postMessage({ id, output }, bytes ? movable(bytes) : []);
    } catch (error) {
      parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

function lowerOnRequests(): void {
  const before = requestsTaken();
  const watch = setInterval(() => {
    if (requestsTaken() === before) return;
    setPriority(constants.priority.PRIORITY_LOW);
    clearInterval(watch);
  }, WATCH_MS);
  watch.unref();
}
