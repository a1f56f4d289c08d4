import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { setTimeout as pause, setImmediate as yieldToRequests } from 'node:timers/promises';
import { Worker, isMainThread } from 'node:worker_threads';
import { projectRoot } from '../project-root';
import { requestCount, requestsTaken } from '../request-activity';
import { sha256Hex } from '../sha256';
import { CHECKPOINT_EVENT_TYPE } from './checkpoint';
import { checkExportLineBytes, type CheckedLine } from './export-lines';
import { LazyEntry, ObjectsNotReadError } from './lazy-entry';
import { HASH_BYTES, MerkleFrontier, leafHash, runNodes } from '../event-store/merkle-tree';
import type { Sql } from '../event-store/sql';
import { readHashedRange, storedRanges } from './stored-entries';
import { SALE_ENTRY_TYPE } from './rule-references';
import { ChainVerifier, type ChainVerification, type VerifierOptions } from './chain-verifier';

/**
 * The per-entry work of a verification, batch by batch: plain functions of their input, so a
 * worker thread and the caller's own thread give the same answer.
 */
export const HASH_TASKS = {
  /** SHA-256 (hex) of each entry's stored bytes. */
  bytes: (texts: string[]) => texts.map((text) => sha256Hex(text)),
  /** The entries of a run of whole export lines (export-lines.ts), or the first line that cannot be read. */
  lines: (bytes: Uint8Array) => ({
    ...checkLines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    bytes,
  }),
  /** The whole check of the log from `from` to `to`, range after range: only its answer goes back to the caller's thread. */
  verify: async (input: ThreadVerification) => verifyStored(await connection(input.url), input),
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
  { texts, numbers, entryHashes, writerMacs, leaves, nodes, nodeCounts }: CheckedEntries,
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
    };
    return new LazyEntry(fields, json(i));
  });
}

function columns(): Omit<CheckedEntries, 'leaves' | 'nodes' | 'nodeCounts'> & { leafList: Buffer[] } {
  return { texts: [], numbers: [], entryHashes: [], writerMacs: [], leafList: [] };
}

function add(into: ReturnType<typeof columns>, e: Omit<CheckedLine, 'entryHash'>, entryHash: string): void {
  into.texts.push(e.entryId, e.streamId, e.type, e.recordedAt, e.prevHash, e.hash);
  into.numbers.push(e.position, e.streamRevision);
  into.entryHashes.push(entryHash === e.hash ? null : entryHash);
  into.writerMacs.push(e.writerMac ?? null);
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

/**
 * Positions per range a verification reads: one query's worth. 500 rather than 2,000: a quarter of
 * the query and of the batch checked at once halved a concurrent sale's p99 (docs/benchmarks.md).
 */
const RANGE = 500;

/** Ranges in flight while the service takes no requests: READ_AHEAD - 1 read by database backends while this thread checks one. */
const READ_AHEAD = 3;

/**
 * A verification as a worker thread is given it: the options as they cross threads (a KeyObject
 * does; a Buffer arrives as a Uint8Array, and a frontier is sent as its state).
 */
export interface ThreadVerification {
  url: string;
  from: number;
  to: number;
  options: Omit<VerifierOptions, 'treeBefore' | 'writerKey'> & {
    treeBefore?: ReturnType<MerkleFrontier['state']>;
    writerKey?: Uint8Array;
  };
}

/**
 * The `verify` task of a worker thread: has the database read and hash range after range
 * (`readHashedRange`), and checks each in turn, on this thread: the entries need not cross to
 * another. Null when the verifier wants an entry's texts that were not read (around a break): the
 * caller then verifies with every entry's texts.
 */
async function verifyStored(
  db: Sql,
  { from, to, options: { treeBefore, writerKey, ...options } }: ThreadVerification,
): Promise<ChainVerification | null> {
  const verifier = new ChainVerifier({
    ...options,
    treeBefore: treeBefore && MerkleFrontier.of(treeBefore.size, (level) => Buffer.from(treeBefore.peaks[level]!)),
    writerKey: writerKey && Buffer.from(writerKey),
  });
  // Inline on this thread, it still rests while the service takes requests (HashPool.taken).
  const pool = HashPool.start(false, true);
  try {
    await pool.each(
      storedRanges(db, from, to, RANGE),
      (range) => readHashedRange(db, range.from, range.to, TEXTS_READ),
      (_, entries) => entries.forEach((e) => verifier.push(e)),
      READ_AHEAD,
    );
  } catch (error) {
    if (error instanceof ObjectsNotReadError) return null;
    throw error;
  }
  return verifier.result();
}

/** The entries whose data a verifier reads in a sound log: checkpoints, and sales for the rule entries they name. */
const TEXTS_READ = [CHECKPOINT_EVENT_TYPE, SALE_ENTRY_TYPE];

/** This thread's connection to the log, opened by the first task that reads it. */
const connections = new Map<string, Promise<Sql>>();

function connection(url: string): Promise<Sql> {
  let db = connections.get(url);
  if (!db) {
    // Loaded here: the offline verifier's threads never reach a database.
    db = import('../event-store/pg-database').then(({ PgDatabase }) => new PgDatabase(url));
    connections.set(url, db);
  }
  return db;
}

type Tasks = typeof HASH_TASKS;
export type HashTask = keyof Tasks;
type Input<K extends HashTask> = Parameters<Tasks[K]>[0];
type Output<K extends HashTask> = Awaited<ReturnType<Tasks[K]>>;

/**
 * Worker threads for the hashing, one per core: the chain's order is checked on the caller's
 * thread, but the SHA-256 of each entry (the bulk of the work) is independent of the others.
 * With no threads, the tasks run inline.
 */
export class HashPool {
  private readonly pending = new Map<number, { resolve: (output: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private turn = 0;
  /** When the current stretch of work began, and the requests taken by then (see `taken`). */
  private workingSince = performance.now();
  private requestsBefore = requestsTaken();
  /** When a stretch of work last saw requests taken (see `depth`). */
  private lastRequestsSeen = -Infinity;

  private constructor(
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
   * threads run at the lowest priority, so a sale's request is scheduled before them. `threads`:
   * fewer, for work that is one thread's (a whole verification, `verify`).
   */
  static start(
    parallel: boolean,
    background = false,
    threads = background ? Math.max(1, availableParallelism() - 1) : availableParallelism(),
  ): HashPool {
    return new HashPool(parallel ? Array.from({ length: threads }, () => startWorker(background)) : [], background);
  }

  /** `move`: buffers of the input given to the thread rather than copied (see `movable`); unusable here afterwards. */
  run<K extends HashTask>(task: K, input: Input<K>, move: ArrayBuffer[] = []): Promise<Output<K>> {
    if (this.workers.length === 0)
      return Promise.resolve((HASH_TASKS[task] as (input: Input<K>) => Output<K> | Promise<Output<K>>)(input));
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length];
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
    readAhead = 1,
  ): Promise<void> {
    const inFlight: Promise<[B, O]>[] = [];
    for await (const batch of batches) {
      const done = work(batch).then((output): [B, O] => [batch, output]);
      // Awaited in turn below; until then a failure must not count as unhandled.
      done.catch(() => undefined);
      inFlight.push(done);
      while (inFlight.length >= this.depth(readAhead)) await this.taken(take, await inFlight.shift()!);
    }
    for (const done of inFlight) await this.taken(take, await done);
  }

  /**
   * How many batches to keep in flight. With threads, enough to keep every one busy while the next
   * is read. Inline, `readAhead`: a whole verification on a worker thread has the database read
   * and hash the next ranges, on connections of their own, while it checks one. In the background,
   * only once the service has taken no request for QUIET_MS: beside its sales, one at a time as
   * before, so that those backends, which no nice value of ours reaches, take no more than a core
   * from them (see `taken`).
   */
  private depth(readAhead: number): number {
    if (this.workers.length > 0) return this.workers.length * 2;
    const quiet = requestsTaken() === this.requestsBefore && performance.now() - this.lastRequestsSeen >= QUIET_MS;
    return !this.background || quiet ? readAhead : 1;
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

/** How long a background pool waits after the service's last request before it reads ahead. */
const QUIET_MS = 1000;

/**
 * The worker is this module's built sibling. Run from sources (ts-node, ts-jest), it is the one in
 * dist/, which `npm run build` made: a worker compiling TypeScript as it starts took seconds of CPU
 * per thread.
 */
function startWorker(background: boolean): Worker {
  const root = projectRoot(__dirname);
  const dir = extname(__filename) === '.ts' ? join(root, 'dist', relative(root, __dirname)) : __dirname;
  const file = join(dir, 'hash-pool.worker.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return new Worker(file, { workerData: { background, requests: requestCount } });
}
