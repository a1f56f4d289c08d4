import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { movable, type TaskTable } from './hash-pool';

/** A thread of `HashPool`: runs the task of each message and answers with its id. Called by a pool's worker file. */
export function serveTasks(tasks: TaskTable): void {
  // On Linux a nice value is a thread's own: this lowers only this thread, not the host's event loop.
  if ((workerData as { background?: boolean } | undefined)?.background) setPriority(constants.priority.PRIORITY_LOW);
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
