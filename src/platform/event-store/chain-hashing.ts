import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sha256Hex } from '../sha256';
import { checkExportLine, type CheckedLine } from './chain-export';

/**
 * The per-entry work of a verification, batch by batch: plain functions of their input, so a
 * worker thread and the caller's own thread give the same answer.
 */
export const HASH_TASKS = {
  /** SHA-256 (hex) of each entry's stored bytes. */
  bytes: (texts: string[]) => texts.map((text) => sha256Hex(text)),
  /** Each export line's fields and the hash of the entry it holds (chain-export.ts), or why it cannot be read. */
  lines: (lines: string[]) =>
    lines.map((line): CheckedLine | { error: string } => {
      try {
        return checkExportLine(line);
      } catch (error) {
        return { error: (error as Error).message };
      }
    }),
};

type Tasks = typeof HASH_TASKS;
export type HashTask = keyof Tasks;
type Input<K extends HashTask> = Parameters<Tasks[K]>[0];
type Output<K extends HashTask> = ReturnType<Tasks[K]>;


/**
 * Worker threads for the hashing, one per core: the chain's order is checked on the caller's
 * thread, but the SHA-256 of each entry (the bulk of the work) is independent of the others.
 * With no threads, the tasks run inline.
 */
export class HashPool {
  private readonly pending = new Map<number, { resolve: (output: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private turn = 0;

  private constructor(private readonly workers: Worker[]) {
    for (const worker of workers) {
      worker.on('message', ({ id, output, error }: { id: number; output?: unknown; error?: string }) => {
        const job = this.pending.get(id);
        this.pending.delete(id);
        if (error === undefined) job?.resolve(output);
        else job?.reject(new Error(error));
      });
      worker.on('error', (error) => this.failAll(error));
    }
  }

  /**
   * `parallel`: one thread per core. Else the tasks run inline: for a small log, starting workers
   * costs more than it saves (the service's tests verify small logs by the hundred).
   */
  static start(parallel: boolean): HashPool {
    return new HashPool(parallel ? Array.from({ length: availableParallelism() }, startWorker) : []);
  }

  /** How many batches to keep in flight: enough to keep every thread busy while the next is read. */
  get depth(): number {
    return Math.max(1, this.workers.length * 2);
  }

  run<K extends HashTask>(task: K, input: Input<K>): Promise<Output<K>> {
    if (this.workers.length === 0) return Promise.resolve((HASH_TASKS[task] as (input: Input<K>) => Output<K>)(input));
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length];
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (output: unknown) => void, reject });
      worker.postMessage({ id, task, input });
    });
  }

  /**
   * Runs `task` over each batch, `depth` batches at a time, and hands each batch with its output
   * to `take` in the batches' order: the order the chain is checked in.
   */
  async each<B, K extends HashTask>(batches: AsyncIterable<B>, task: K, input: (batch: B) => Input<K>, take: (batch: B, output: Output<K>) => void): Promise<void> {
    const inFlight: Promise<[B, Output<K>]>[] = [];
    for await (const batch of batches) {
      const done = this.run(task, input(batch)).then((output): [B, Output<K>] => [batch, output]);
      // Awaited in turn below; until then a failure must not count as unhandled.
      done.catch(() => undefined);
      inFlight.push(done);
      if (inFlight.length >= this.depth) take(...(await inFlight.shift()!));
    }
    for (const done of inFlight) take(...(await done));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private failAll(error: Error): void {
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}

/** The worker is this module's sibling; run from sources (ts-node, jest) it is TypeScript too. */
function startWorker(): Worker {
  const ext = extname(__filename);
  return new Worker(join(__dirname, `chain-hash.worker${ext}`), {
    execArgv: ext === '.ts' ? ['--require', 'ts-node/register/transpile-only'] : [],
  });
}
