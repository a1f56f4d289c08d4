import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { setTimeout as pause, setImmediate as yieldToRequests } from 'node:timers/promises';
import { Worker, isMainThread } from 'node:worker_threads';
import { requestCount, requestsTaken } from './request-activity';
import { sha256Hex } from './sha256';
import { checkExportLineBytes, type CheckedLine } from './export-lines';
import { LazyEntry } from './lazy-entry';
import { HASH_BYTES, leafHash, runNodes } from './merkle-tree';

/**
 * The per-entry work of a verification, batch by batch: plain functions of their input, so a
 * worker thread and the caller's own thread give the same answer. A host adds tasks of its own
 * (the service: a whole verification of its stored log) with a worker file of its own (`serveTasks`).
 */
export const HASH_TASKS = {
  /** SHA-256 (hex) of each entry's stored bytes. */
  bytes: (texts: string[]) => texts.map((text) => sha256Hex(text)),
  /** The entries of a run of whole export lines (export-lines.ts), or the first line that cannot be read. */
  lines: (bytes: Uint8Array) => ({
    ...checkLines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    bytes,
  }),
};

/**
 * Entries as a verifier takes them, hashed, as columns: a thread sends back a few arrays per batch
 * instead of an object per entry, and no entry's data unless the verifier will read it.
 */
export interface CheckedEntries {
  /** Six per entry: entry id, stream id, event type, recorded at, prev hash, hash. */
  texts: string[];
  /** Two per entry: position, stream revision. */
  numbers: number[];
  /** The hash of each entry at its stored position; null where it is the stored hash. */
  entryHashes: (string | null)[];
  /** Each entry's writer authenticator, null where it has none. */
  writerMacs: (string | null)[];
  /** Of each sale, the members of its data that name entries (`entryReferences`); null for other entries, or where not cut. */
  references: (string | null)[];
  /** Each entry's Merkle leaf hash, 32 bytes after 32 bytes: the tree's share of the hashing done here too. */
  leaves: Uint8Array;
  /**
   * The roots of the full subtrees over the batch's leaves (`runNodes`), `nodeCounts[i]` of them
   * ending at entry i: those a tree with leaf = position - 1 completes (true of a sound log), so
   * that the verifier's thread hashes only the nodes that join batches.
   */
  nodes: Uint8Array;
  nodeCounts: Uint8Array;
}

export interface CheckedLines extends CheckedEntries {
  /** The batch itself, handed back: it is moved to the thread and back, not copied (`movable`). */
  bytes: Uint8Array;
  /** The lines of the batch, blank ones included: how the caller numbers the next batch's. */
  lineCount: number;
  /** Two per entry: where its line starts and ends in the batch. */
  ranges: number[];
  /** The first line that cannot be read (counted from 1 in the batch), and why; the entries before it are given. */
  error?: { line: number; message: string };
}

/** The entries of a batch a thread checked, each with its objects as `json(i)` gives them (see LazyEntry). */
export function entriesOf(
  { texts, numbers, entryHashes, writerMacs, references, leaves, nodes, nodeCounts }: CheckedEntries,
  json: (i: number) => ConstructorParameters<typeof LazyEntry>[1],
): LazyEntry[] {
  const leafBytes = Buffer.from(leaves.buffer, leaves.byteOffset, leaves.byteLength);
  const nodeBytes = Buffer.from(nodes.buffer, nodes.byteOffset, nodes.byteLength);
  let nodesBefore = 0;
  return entryHashes.map((entryHash, i) => {
    const treeNodes =
      nodeCounts[i] === 0
        ? undefined
        : nodeBytes.subarray(nodesBefore * HASH_BYTES, (nodesBefore += nodeCounts[i]) * HASH_BYTES);
    const hash = texts[6 * i + 5];
    const fields = {
      position: numbers[2 * i],
      entryId: texts[6 * i],
      streamId: texts[6 * i + 1],
      streamRevision: numbers[2 * i + 1],
      type: texts[6 * i + 2],
      recordedAt: texts[6 * i + 3],
      prevHash: texts[6 * i + 4],
      hash,
      entryHash: entryHash ?? hash,
      leafHash: leafBytes.subarray(32 * i, 32 * i + 32),
      treeNodes,
      writerMac: writerMacs[i],
      references: references[i] ?? undefined,
    };
    return new LazyEntry(fields, json(i));
  });
}

/** Entries read and hashed on a thread, as the columns it sends back (`entriesOf` makes entries of them again). */
export function checkedEntries(entries: readonly CheckedLine[]): CheckedEntries {
  const into = columns();
  for (const e of entries) add(into, e, e.entryHash);
  return finish(into, {});
}

function columns(): Omit<CheckedEntries, 'leaves' | 'nodes' | 'nodeCounts'> & { leafList: Buffer[] } {
  return { texts: [], numbers: [], entryHashes: [], writerMacs: [], references: [], leafList: [] };
}

function add(into: ReturnType<typeof columns>, e: Omit<CheckedLine, 'entryHash'>, entryHash: string): void {
  into.texts.push(e.entryId, e.streamId, e.type, e.recordedAt, e.prevHash, e.hash);
  into.numbers.push(e.position, e.streamRevision);
  into.entryHashes.push(entryHash === e.hash ? null : entryHash);
  into.writerMacs.push(e.writerMac ?? null);
  into.references.push(e.references ?? null);
  into.leafList.push(leafHash(e.hash));
}

function finish<T extends CheckedEntries>(from: ReturnType<typeof columns>, rest: Omit<T, keyof CheckedEntries>): T {
  const { leafList, ...entries } = from;
  const leaves = Buffer.concat(leafList);
  const { nodes, counts } = runNodes(leaves, (i) => entries.numbers[2 * i] - 1);
  return { ...entries, leaves, nodes, nodeCounts: counts, ...rest } as unknown as T;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPEN_BRACE = 0x7b;

function checkLines(bytes: Buffer): Omit<CheckedLines, 'bytes'> {
  const into = columns();
  const ranges: number[] = [];
  let lineCount = 0;
  let error: CheckedLines['error'];
  for (let start = 0; start < bytes.length && !error;) {
    const newline = bytes.indexOf(NEWLINE, start);
    const next = newline < 0 ? bytes.length : newline + 1;
    let end = newline < 0 ? bytes.length : newline;
    if (end > start && bytes[end - 1] === CARRIAGE_RETURN) end -= 1;
    lineCount += 1;
    const line = bytes.subarray(start, end);
    if (line.length > 0 && (line[0] === OPEN_BRACE || line.toString().trim() !== '')) {
      try {
        const { entryHash, ...fields } = checkExportLineBytes(line);
        add(into, fields, entryHash);
        ranges.push(start, end);
      } catch (failure) {
        error = { line: lineCount, message: (failure as Error).message };
      }
    }
    start = next;
  }
  return finish<Omit<CheckedLines, 'bytes'>>(into, { lineCount, ranges, error });
}

/** Tasks a pool's threads run, by name: each a plain function of its input, which crosses threads. */
export type TaskTable = Record<string, (input: never) => unknown>;
type Input<T extends TaskTable, K extends keyof T> = Parameters<T[K]>[0];
type Output<T extends TaskTable, K extends keyof T> = Awaited<ReturnType<T[K]>>;

/** A pool's tasks and the built file its threads run them in, a module that calls `serveTasks` with the same tasks. */
export interface PoolTasks<T extends TaskTable> {
  tasks: T;
  workerFile: string;
}

/**
 * The package's own tasks. The worker is this module's built sibling: run from sources (ts-jest),
 * the one in dist/, which the build made: a worker compiling TypeScript as it starts took seconds of
 * CPU per thread.
 */
export const HASH_POOL: PoolTasks<typeof HASH_TASKS> = {
  tasks: HASH_TASKS,
  workerFile: join(extname(__filename) === '.ts' ? join(__dirname, '..', 'dist') : __dirname, 'hash-pool.worker.js'),
};

/**
 * Worker threads for the hashing, one per core: the chain's order is checked on the caller's
 * thread, but the SHA-256 of each entry (the bulk of the work) is independent of the others.
 * With no threads, the tasks run inline.
 */
export class HashPool<T extends TaskTable = typeof HASH_TASKS> {
  private readonly pending = new Map<number, { resolve: (output: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private turn = 0;
  /** When the current stretch of work began, and the requests taken by then (see `taken`). */
  private workingSince = performance.now();
  private requestsBefore = requestsTaken();
  /** When a stretch of work last saw requests taken (see `depth`). */
  private lastRequestsSeen = -Infinity;

  private constructor(
    private readonly tasks: T,
    private readonly workers: Worker[],
    private readonly background: boolean,
  ) {
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
   * costs more than it saves (the service's tests verify small logs by the hundred). `background`:
   * a verification inside the service, beside its sales: a core is left to the event loop and the
   * threads run at the lowest priority once the service takes a request (`serveTasks`), so a
   * sale's request is scheduled before them. `threads`:
   * fewer, for work that is one thread's (a whole verification, the service's `verify`), or every
   * core's, for threads that a background pool gives work only while the service is quiet (`active`).
   */
  static start<T extends TaskTable>(
    { tasks, workerFile }: PoolTasks<T>,
    parallel: boolean,
    background = false,
    threads = background ? Math.max(1, availableParallelism() - 1) : availableParallelism(),
  ): HashPool<T> {
    const workers = parallel ? Array.from({ length: threads }, () => startWorker(workerFile, background)) : [];
    return new HashPool(tasks, workers, background);
  }

  /** `move`: buffers of the input given to the thread rather than copied (see `movable`); unusable here afterwards. */
  run<K extends keyof T & string>(task: K, input: Input<T, K>, move: ArrayBuffer[] = []): Promise<Output<T, K>> {
    if (this.workers.length === 0)
      return Promise.resolve((this.tasks[task] as (input: Input<T, K>) => Output<T, K> | Promise<Output<T, K>>)(input));
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.active()];
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (output: unknown) => void, reject });
      worker.postMessage({ id, task, input }, move);
    });
  }

  /**
   * Runs `work` over each batch, several batches at a time (`depth`), and hands each batch with
   * its output to `take` in the batches' order: the order the chain is checked in.
   */
  async each<B, O>(
    batches: AsyncIterable<B>,
    work: (batch: B) => Promise<O>,
    take: (batch: B, output: O) => void,
  ): Promise<void> {
    const inFlight: Promise<[B, O]>[] = [];
    for await (const batch of batches) {
      const done = work(batch).then((output): [B, O] => [batch, output]);
      // Awaited in turn below; until then a failure must not count as unhandled.
      done.catch(() => undefined);
      inFlight.push(done);
      while (inFlight.length >= this.depth()) await this.taken(take, await inFlight.shift()!);
    }
    for (const done of inFlight) await this.taken(take, await done);
  }

  /**
   * How many batches to keep in flight: with threads, enough to keep the active ones busy while
   * the next is read; inline, one.
   */
  private depth(): number {
    return this.workers.length > 0 ? this.active() * 2 : 1;
  }

  /** Whether the service has taken no request for QUIET_MS. */
  private quiet(): boolean {
    return requestsTaken() === this.requestsBefore && performance.now() - this.lastRequestsSeen >= QUIET_MS;
  }

  /**
   * The threads given work: all of them, unless a background pool's service has taken requests in
   * the last QUIET_MS: then one, so that a verification (its thread, and the database backends
   * reading for it, which no nice value of ours reaches) takes about a core at most from the sales
   * beside it, and less as it rests (see `taken`).
   */
  private active(): number {
    return !this.background || this.quiet() ? this.workers.length : 1;
  }

  /**
   * A batch handed over, then a turn of the event loop: requests that came meanwhile go before the
   * next batch. A background pool whose process took requests while it worked then rests as long
   * as it worked, so that its threads and the database backends reading for them (which no nice
   * value of ours reaches) take at most about half the machine from the sales beside them; with
   * no requests it goes on at full speed (docs/benchmarks.md, "Verification beside sales"). So
   * does a background pool that runs inline on a worker thread (a whole verification there).
   */
  private async taken<B, O>(take: (batch: B, output: O) => void, [batch, output]: [B, O]): Promise<void> {
    take(batch, output);
    const requests = requestsTaken();
    const offTheEventLoop = this.workers.length > 0 || !isMainThread;
    if (this.background && offTheEventLoop && requests !== this.requestsBefore)
      await pause(performance.now() - this.workingSince);
    else await yieldToRequests();
    this.workingSince = performance.now();
    if (requests !== this.requestsBefore) this.lastRequestsSeen = this.workingSince;
    this.requestsBefore = requests;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private failAll(error: Error): void {
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}

/**
 * The memory of `bytes`, to move between threads instead of copying it, when `bytes` is all of it:
 * a small Buffer is a slice of memory shared with others, which must stay where it is (then it is copied).
 */
export function movable(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? [bytes.buffer]
    : [];
}

/** How long a background pool waits after the service's last request before it takes every thread again. */
const QUIET_MS = 1000;

function startWorker(file: string, background: boolean): Worker {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return new Worker(file, { workerData: { background, requests: requestCount } });
}
