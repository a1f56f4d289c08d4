import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { HASH_TASKS, movable, type HashTask } from './hash-pool';

// On Linux a nice value is a thread's own: this lowers only this thread, not the service's event loop.
if ((workerData as { background?: boolean } | undefined)?.background) setPriority(constants.priority.PRIORITY_LOW);

/** A thread of `HashPool`: runs the task of each message and answers with its id. */
parentPort?.on(
  'message',
  ({ id, task, input }: { id: number; task: HashTask; input: never }) => void run(id, task, input),
);

async function run(id: number, task: HashTask, input: never): Promise<void> {
  try {
    const output = await HASH_TASKS[task](input);
    // A batch of lines goes back as it came: moved, not copied. A `verify` answers null when it wants texts it did not read.
    const bytes = (output as { bytes?: Uint8Array } | null)?.bytes;
    parentPort?.postMessage({ id, output }, bytes ? movable(bytes) : []);
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
}
