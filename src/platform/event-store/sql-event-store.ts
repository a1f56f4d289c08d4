import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import {
  sha256Hex,
  type ChainHead,
  type EventRow,
  canonicalJson,
  entryBytes,
  leafHash,
  type MerkleFrontier,
  writerMac,
} from '@crcs/tlog';
import { CoalescingQueue } from '../coalescing-queue';
import {
  EventStore,
  type AppendOptions,
  type AppendTx,
  type BatchWriter,
  type EventsAfterHead,
  type NewEvent,
  type StoredEvent,
} from './event-store.port';
import { EVENT_COLUMNS, toStoredEvent } from './event-rows';
import { insertNodes, loadFrontier, nodeParams } from './merkle-store';
import { JsonText, insertRows, prepared, type Database, type Sql } from './sql';
import {
  ChainHeadError,
  RevisionConflictError,
  UnstorableValueError,
  type ChainHeadProblem,
} from './event-store.errors';

interface PendingAppend {
  streamId: string;
  events: NewEvent[] | EventsAfterHead;
  options: AppendOptions;
}

/** Appends that wait while a batch commits are written together in the next one. */
const MAX_BATCH = 200;

/** Appends up to the next one whose events depend on the log: that one goes alone, so that it reads every entry before it. */
function nextBatch(waiting: PendingAppend[]): number {
  const dependent = waiting.findIndex((pending) => !Array.isArray(pending.events));
  return dependent === 0 ? 1 : dependent > 0 ? Math.min(dependent, MAX_BATCH) : MAX_BATCH;
}

/**
 * The streams' revisions ($1: their ids), per stream the index's last entry: a prepared
 * `= any($1) group by` fell to a generic plan that made appends of 8 to 32 events half as fast
 * (bench/append-ceiling.bench.ts).
 */
const REVISIONS = `select s.stream_id, r.revision from unnest($1::text[]) as s(stream_id)
  cross join lateral (select max(stream_revision)::int as revision from events e where e.stream_id = s.stream_id) r
  where r.revision is not null`;
const LAST_POSITION = prepared('select max(position) as last from events');
/** The chain-head lock, with the log's last position and the streams' revisions in the same round trip (see lockHead). */
const LOCK_HEAD = prepared(`select h.position, h.hash, (select position from event_store_head where id) as seen,
  (select max(position) from events) as last, (select coalesce(json_agg(json_build_array(v.stream_id, v.revision)), '[]') from (${REVISIONS}) v) as revisions
  from event_store_head h where h.id for update`);

/** What the rest of the append statement holds its writes to: the head moved (see appendStatement). */
const MOVED = 'exists (select from moved)';

/**
 * A batch's append as one statement, a data-modifying CTE, its parameters pushed onto `params`
 * after the caller's: $1, $2 the head the batch was chained on (position, hash), $3 its streams,
 * $4 their revisions before it (0: none), $5 the new head's position, $6 the new head's hash, $7 to
 * $9 the Merkle tree's new nodes (merkle-store.ts), then the entries. `moved` moves the head, and takes the chain-head lock doing so, only when the log is
 * where the batch was chained on: the head at $1, $2, the log's last entry at $1 and each stream at
 * its revision. Those checks read the statement's snapshot while the head row, once locked, is read
 * as it stands: when another append committed while the lock was awaited, the head is not at $1
 * any more and nothing is written; when it is, no append committed since the snapshot (every append
 * moves the head), and the snapshot's log and revisions are the ones the lock protects. Every other
 * part writes only when the head moved: the entries, the nodes and the rows the appends' steps gathered, a part per writer (BatchWriter),
 * whose returned rows the statement answers as `w0`, `w1`… Without `log`: the writers' parts alone,
 * for a batch whose entries are already written. The text changes only with the set of writers, so
 * it is `prepared`.
 */
function appendStatement(writes: GatheredRows, params: unknown[], log?: { rows: Record<string, unknown>[] }): string {
  const parts: string[] = [];
  if (log) {
    const entries = insertRows('events', log.rows, params);
    parts.push(
      `moved as (update event_store_head set position = $5, hash = $6
        where id and position = $1 and hash = $2 and (select coalesce(max(position), 0) from events) = $1
          and not exists (select from unnest($3::text[], $4::int[]) as s(stream_id, revision)
            where (select coalesce(max(stream_revision), 0) from events e where e.stream_id = s.stream_id) <> s.revision)
        returning id)`,
      `entries as (${entries} where ${MOVED})`,
      `nodes as (${insertNodes(7, MOVED)})`,
    );
  }
  const when = log ? MOVED : 'true';
  const writers = [...writes.keys()];
  writers.forEach((writer, i) =>
    parts.push(`w${i} as (${writer.statement(writes.get(writer) as never[], params, when)})`),
  );
  const results = writers.map((_, i) => `(select coalesce(json_agg(w), '[]') from w${i} w) as w${i}`);
  return prepared(
    `with ${parts.join(',\n')}\nselect ${[log ? `${MOVED} as moved` : 'true as moved', ...results].join(', ')}`,
  );
}

/** The rows gathered for each writer, in the order the writers were first handed one. */
type GatheredRows = Map<BatchWriter<never>, unknown[]>;

/**
 * The event store on one SQL dialect, through the `Database` port.
 *
 * Every append moves the chain head row in its transaction, so appends from any number of
 * processes are serialized on its lock: positions stay gap-free, the chain never forks and commits
 * become visible in position order. Appends arriving while a transaction is open are queued and
 * written in the next transaction together (group commit). A batch is chained on the head this
 * process left, and written by one statement that takes the head lock and writes only if the log is
 * still there (appendStatement): the entries, the Merkle tree's nodes, the head and the rows the
 * appends' steps gathered (their idempotency records). Read models are built after it, from their
 * checkpoints (projections/runner.ts). When another process appended since, the batch
 * is chained again under the lock, taken first. When one append fails, the batch is written again
 * append by append, each in its own savepoint, so that it does not fail its neighbours.
 */
export class SqlEventStore extends EventStore {
  /** Group commit: the appends that arrive while a batch commits are the next batch (`nextBatch` says how many). */
  private readonly queue = new CoalescingQueue<PendingAppend, Outcome>((batch) => this.commitBatch(batch), nextBatch);
  private readonly listeners = new Set<(events: StoredEvent[]) => void>();
  private readonly headWatchers = new Set<(problem: ChainHeadProblem) => void>();
  /** The last position this process committed: the head of a log never goes back below it. */
  private committedUpTo = 0;
  /** The head and the tree's right edge as this process's last commit left them: the next batch is chained on them first. */
  private known: Known | undefined;

  /** `writerKey`: each entry is written with its authenticator under it (packages/tlog/src/writer-mac.ts); without it, none. */
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly writerKey?: Buffer,
  ) {
    super();
  }

  async append(streamId: string, events: NewEvent[] | EventsAfterHead, options: AppendOptions): Promise<StoredEvent[]> {
    const outcome = await this.queue.push({ streamId, events, options });
    if (!Array.isArray(outcome)) throw outcome.error;
    return outcome;
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    const rows = await this.db.query<EventRow>(
      `select ${EVENT_COLUMNS} from events where stream_id = $1 order by stream_revision`,
      [streamId],
    );
    return rows.map(toStoredEvent);
  }

  async readAll(fromPosition: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.db.query<EventRow>(
      `select ${EVENT_COLUMNS} from events where position >= $1 order by position limit $2`,
      [fromPosition, limit],
    );
    return rows.map(toStoredEvent);
  }

  subscribe(listener: (events: StoredEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  watchHead(listener: (problem: ChainHeadProblem) => void): () => void {
    this.headWatchers.add(listener);
    return () => this.headWatchers.delete(listener);
  }

  async head(): Promise<ChainHead> {
    const [row] = await this.db.query<{ position: string; hash: string }>(
      'select position, hash from event_store_head where id',
    );
    return { position: Number(row.position), hash: row.hash };
  }

  /**
   * One transaction for the whole batch. First optimistically: every append's entries, and the
   * rows their steps gather, written once. If anything in that fails (an `inTransaction` step such as a duplicate idempotency key), the batch is written again append by
   * append, each in its own savepoint, so that only the failing append fails.
   */
  private async commitBatch(batch: PendingAppend[]): Promise<Outcome[]> {
    let written: BatchWritten;
    try {
      written = await this.db.transaction((tx) => this.writeBatch(tx, batch));
    } catch (error) {
      this.known = undefined;
      if (error instanceof ChainHeadError) for (const watcher of this.headWatchers) watcher(error.problem);
      if (batch.length === 1 || !(error instanceof BatchFailed))
        throw error instanceof BatchFailed ? error.cause : error;
      try {
        written = await this.db.transaction((tx) => this.writeIsolated(tx, batch));
      } catch (retryError) {
        this.known = undefined;
        throw retryError;
      }
    }
    const { outcomes, known } = written;
    this.known = known;
    this.committedUpTo = known.head.position;
    const results = batch.map((pending) => outcomes.get(pending)!);
    const committed = results.flatMap((outcome) => (Array.isArray(outcome) ? outcome : []));
    if (committed.length > 0) for (const listener of this.listeners) listener(committed);
    return results;
  }

  /**
   * The batch chained on the head this process left, in one statement that writes it only if the
   * log is still there; when it is not (another process appended), or cannot be known, chained
   * again under the head lock, taken first. A failure of the writes throws BatchFailed for the
   * caller to retry append by append.
   */
  private async writeBatch(tx: Sql, batch: PendingAppend[]): Promise<BatchWritten> {
    const assumed = this.assumedChain(batch);
    const written = assumed && (await this.writeChained(tx, batch, assumed));
    if (written) return written;
    const locked = await this.lockHead(tx, batch);
    const relocked = await this.writeChained(tx, batch, locked);
    // Under the lock the log is as read: only SQL behind the service's back changes it.
    if (!relocked) throw new Error('the log changed under the chain-head lock');
    return relocked;
  }

  /**
   * The log as this process's last commit left it, with each stream at the revision its first
   * append expects (which the statement checks). None when unknown: at the start, after a failure,
   * for an append that expects any revision, or whose events depend on the log (which it reads under the lock).
   */
  private assumedChain(batch: PendingAppend[]): ChainedOn | undefined {
    if (!this.known) return undefined;
    const revisions = new Map<string, number>();
    for (const { streamId, events, options } of batch) {
      if (!Array.isArray(events) || (!revisions.has(streamId) && options.expectedRevision === 'any')) return undefined;
      if (!revisions.has(streamId)) revisions.set(streamId, options.expectedRevision as number);
    }
    return { head: this.known.head, tree: this.known.tree.copy(), revisions };
  }

  /** Chains every append on `on` (each failing alone: a revision conflict) and writes those accepted; undefined when the log is not at `on`. */
  private async writeChained(tx: Sql, batch: PendingAppend[], on: ChainedOn): Promise<BatchWritten | undefined> {
    const outcomes: Outcomes = new Map();
    const revisions = new Map(on.revisions);
    let head = on.head;
    const accepted: Written[] = [];
    for (const pending of batch) {
      let append: Written;
      try {
        append = await this.chainedOn(tx, pending, head, revisions);
      } catch (error) {
        outcomes.set(pending, { error });
        continue;
      }
      const last = append.stored[append.stored.length - 1];
      outcomes.set(pending, append.stored);
      head = last;
      // A later append to the same stream in this batch must see this one's events.
      revisions.set(pending.streamId, last.streamRevision);
      accepted.push(append);
    }
    if (accepted.length > 0) {
      const moved = await this.writeAppends(tx, accepted, on).catch((error: unknown) => {
        throw new BatchFailed(error);
      });
      if (!moved) return undefined;
    }
    return { outcomes, known: { head, tree: on.tree } };
  }

  /** Under the head lock, taken first: each append in its own savepoint, rolled back alone on failure and reported as its outcome. */
  private async writeIsolated(tx: Sql, batch: PendingAppend[]): Promise<BatchWritten> {
    const outcomes: Outcomes = new Map();
    const locked = await this.lockHead(tx, batch);
    const revisions = new Map(locked.revisions);
    let { head, tree } = locked;
    for (const pending of batch) {
      try {
        const append = await this.chainedOn(tx, pending, head, revisions);
        const on = { head, tree: tree.copy(), revisions: new Map(revisions) };
        await tx.query('savepoint append');
        try {
          if (!(await this.writeAppends(tx, [append], on)))
            throw new Error('the log changed under the chain-head lock');
          await tx.query('release savepoint append');
        } catch (error) {
          await tx.query('rollback to savepoint append');
          throw error;
        }
        const last = append.stored[append.stored.length - 1];
        outcomes.set(pending, append.stored);
        head = last;
        revisions.set(pending.streamId, last.streamRevision);
        tree = on.tree;
      } catch (error) {
        outcomes.set(pending, { error });
      }
    }
    return { outcomes, known: { head, tree } };
  }

  /**
   * Takes the head lock, and reads where the log stands under it: its head, the tree's right edge
   * and the revisions of the batch's streams. Refuses a head that is not the log's last entry (checkHead).
   */
  private async lockHead(tx: Sql, batch: PendingAppend[]): Promise<ChainedOn> {
    const streams = [...new Set(batch.map((pending) => pending.streamId))];
    const [locked] = await tx.query<{
      position: string;
      hash: string;
      seen: string;
      last: string | null;
      revisions: [string, number][];
    }>(LOCK_HEAD, [streams]);
    const head: ChainHead = { position: Number(locked.position), hash: locked.hash };
    let last = Number(locked.last ?? 0);
    let revisions = new Map(locked.revisions);
    /*
     * LOCK_HEAD reads the log's last position and the streams' revisions from the snapshot its
     * statement began with, but the head row as it stands once locked: in READ COMMITTED a
     * `for update` that waited for another transaction re-reads the row it locks, not the rest. It
     * also reads the head as the snapshot saw it (`seen`). Every append, from this process or
     * another, moves the head forward in the commit that writes its entries, so when `seen` is the
     * locked head no append committed between the snapshot and the lock, and the snapshot's last
     * position and revisions are the ones the lock now protects. When the head moved, or does not
     * match the log's last entry (rows inserted or cut behind the service's back), both are read
     * again after the lock, as statements of their own, before `checkHead` judges: it always sees
     * the log as it stands under the lock. What the snapshot can miss is a row written by SQL
     * without moving the head while the lock was awaited; a separate read leaves the same opening
     * between it and the insert, and either way the insert runs into such a row on the primary key
     * or the next batch's check finds it.
     */
    if (Number(locked.seen) !== head.position || last !== head.position) {
      const [reread] = await tx.query<{ last: string | null }>(LAST_POSITION);
      last = Number(reread.last ?? 0);
      revisions = await currentRevisions(tx, streams);
    }
    this.checkHead(head.position, last);
    const tree =
      this.known?.tree.size === head.position ? this.known.tree.copy() : await loadFrontier(tx, head.position);
    return { head, tree, revisions };
  }

  /**
   * The head must be the log's last entry, and never below what this process committed: a row
   * inserted past it would take the next append's position (a primary-key violation on every sale),
   * and a head moved back would have the next appends reuse the positions of acknowledged entries.
   */
  private checkHead(position: number, last: number): void {
    const problem: ChainHeadProblem | undefined =
      last > position
        ? {
            kind: 'inserted',
            position: position + 1,
            detail: `the log holds entries ${position + 1} to ${last} past its head (${position}): they were written behind the service's back`,
          }
        : last < position
          ? {
              kind: 'deleted',
              position: last + 1,
              detail: `the log's head is at ${position} but its last entry is ${last}: entries were cut from its end`,
            }
          : position < this.committedUpTo
            ? {
                kind: 'deleted',
                position: position + 1,
                detail: `this process appended up to entry ${this.committedUpTo}, but the log now ends at ${position}: acknowledged entries were cut from its end and the head moved back`,
              }
            : undefined;
    if (problem) throw new ChainHeadError(problem);
  }

  /** The append chained after `head`, its stream at its revision in `revisions`; throws what it alone fails with (a revision conflict). */
  private async chainedOn(
    tx: Sql,
    pending: PendingAppend,
    head: ChainHead,
    revisions: ReadonlyMap<string, number>,
  ): Promise<Written> {
    const current = revisions.get(pending.streamId) ?? 0;
    const { expectedRevision } = pending.options;
    if (expectedRevision !== 'any' && expectedRevision !== current) {
      throw new RevisionConflictError(pending.streamId, expectedRevision, current);
    }
    return { pending, ...(await this.chained(tx, pending, head, current)) };
  }

  /**
   * Writes appends chained on `on` (its tree takes their leaves): false, having written nothing,
   * when the log is not at `on`. The appends' steps run first, before their entries are written, so
   * that the rows they gather go into the one statement (appendStatement); a step that reads the
   * transaction (or fails) makes them run again once the entries are written, where its reads see
   * them, and their rows are then written by a statement of their own. A step sees the log with the
   * whole batch written; one that finds its append contradicted
   * fails, and the isolated retry then writes each append after only those before it, as if written alone.
   */
  private async writeAppends(tx: Sql, appends: Written[], on: ChainedOn): Promise<boolean> {
    const events = appends.flatMap(({ stored }) => stored);
    const to = events[events.length - 1];
    const streams = [...new Set(appends.map(({ pending }) => pending.streamId))];
    const nodes = events.flatMap((e) => on.tree.append(leafHash(e.hash)));
    const params: unknown[] = [
      on.head.position,
      on.head.hash,
      streams,
      streams.map((stream) => on.revisions.get(stream) ?? 0),
      to.position,
      to.hash,
      ...nodeParams(nodes),
    ];
    const before = new GatheredWrites();
    const stepsWrote = await runSteps(before, appends).then(
      () => true,
      () => false,
    );
    const writes: GatheredRows = stepsWrote ? before.rows : new Map<BatchWriter<never>, unknown[]>();
    const [result] = await tx.query<AppendResult>(
      appendStatement(writes, params, { rows: eventRows(appends, this.writerKey) }),
      params,
    );
    if (!result.moved) return false;
    checkWrites(writes, result);
    if (!stepsWrote) {
      const after = new GatheredWrites(tx);
      await runSteps(after, appends);
      if (after.rows.size > 0) {
        const writerParams: unknown[] = [];
        const [written] = await tx.query<AppendResult>(appendStatement(after.rows, writerParams), writerParams);
        checkWrites(after.rows, written);
      }
    }
    return true;
  }

  /** The append's events as they will be stored: the next positions after `chain`, hash-linked to it. */
  private async chained(tx: Sql, pending: PendingAppend, chain: ChainHead, revision: number): Promise<Chained> {
    const events = Array.isArray(pending.events) ? pending.events : await pending.events(chain, tx);
    if (events.length === 0) throw new Error('append needs at least one event');
    const recordedAt = this.clock.now().toISOString();
    let prev = chain;
    const chained: Chained = { stored: [], texts: [] };
    for (const [i, event] of events.entries()) {
      // Hash the values as they will read back: JSON round-trip drops undefined and class identity.
      const data = JSON.parse(storableJson(event.data)) as StoredEvent['data'];
      const metadata = JSON.parse(storableJson(event.metadata)) as StoredEvent['metadata'];
      const texts = { data: canonicalJson(data), metadata: canonicalJson(metadata) };
      const entry = {
        position: prev.position + 1,
        entryId: randomUUID(),
        streamId: pending.streamId,
        streamRevision: revision + i + 1,
        type: event.type,
        recordedAt,
        prevHash: prev.hash,
      };
      const stored: StoredEvent = {
        ...entry,
        data,
        metadata,
        hash: sha256Hex(entryBytes(entry, texts.data, texts.metadata)),
      };
      chained.stored.push(stored);
      chained.texts.push(texts);
      prev = stored;
    }
    return chained;
  }
}

/** An append's events as committed, or the error it alone failed with (the batch's others committed). */
type Outcome = StoredEvent[] | { error: unknown };
type Outcomes = Map<PendingAppend, Outcome>;

/** An append's events as chained, and their data and metadata as the canonical texts they were hashed over. */
interface Chained {
  stored: StoredEvent[];
  /** Stored as they are, so that a verifier hashes the very bytes hashed here (entry-hash.ts, entryBytes). */
  texts: { data: string; metadata: string }[];
}

interface Written extends Chained {
  pending: PendingAppend;
}

/** Where a batch is chained on: the head, the tree's right edge there, and its streams' revisions (none: 0). */
interface ChainedOn {
  head: ChainHead;
  tree: MerkleFrontier;
  revisions: ReadonlyMap<string, number>;
}

interface Known {
  head: ChainHead;
  tree: MerkleFrontier;
}

interface BatchWritten {
  outcomes: Outcomes;
  known: Known;
}

/** What appendStatement answers: whether the head moved, and per writer `w<i>` the rows its part returned. */
type AppendResult = { moved: boolean } & Record<string, unknown>;

/**
 * The append transaction as the appends' steps see it, gathering the rows they hand to writers.
 * Without `tx`, the steps run before the entries are written, and a read fails.
 */
class GatheredWrites implements AppendTx {
  readonly rows: GatheredRows = new Map();

  constructor(private readonly tx?: Sql) {}

  query<R>(text: string, params?: unknown[]): Promise<R[]> {
    if (!this.tx) return Promise.reject(new Error('a step read the log before the entries were written'));
    return this.tx.query<R>(text, params);
  }

  writeLater<T>(writer: BatchWriter<T>, row: T): void {
    const rows = this.rows.get(writer) ?? [];
    rows.push(row);
    this.rows.set(writer, rows);
  }
}

async function runSteps(tx: GatheredWrites, appends: Written[]): Promise<void> {
  for (const { pending, stored } of appends) await pending.options.inTransaction?.(tx, stored);
}

/** Each writer's check of the rows its part of the statement returned: throws when one could not be written. */
function checkWrites(writes: GatheredRows, result: AppendResult): void {
  [...writes].forEach(([writer, rows], i) => writer.check(rows as never[], result[`w${i}`] as unknown[]));
}

/** A failure of the optimistic batch write: the batch is written again append by append. */
class BatchFailed extends Error {
  constructor(cause: unknown) {
    super('the batch failed as a whole', { cause });
  }
}

async function currentRevisions(tx: Sql, streams: string[]): Promise<Map<string, number>> {
  const rows = await tx.query<{ stream_id: string; revision: number }>(prepared(REVISIONS), [streams]);
  return new Map(rows.map((row) => [row.stream_id, row.revision]));
}

function eventRows(appends: Written[], writerKey: Buffer | undefined): Record<string, unknown>[] {
  return appends.flatMap(({ stored, texts }) =>
    stored.map((e, i) => ({
      position: e.position,
      entry_id: e.entryId,
      stream_id: e.streamId,
      stream_revision: e.streamRevision,
      event_type: e.type,
      data: new JsonText(texts[i].data),
      metadata: new JsonText(texts[i].metadata),
      recorded_at: e.recordedAt,
      prev_hash: e.prevHash,
      hash: e.hash,
      writer_mac: writerKey ? writerMac(writerKey, e.hash) : null,
    })),
  );
}

/**
 * JSON text of a value, refused when it holds U+0000: PostgreSQL's JSON operators and jsonb cannot
 * take it, and it would fail the whole batch rather than this append alone.
 */
function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json.includes('\\u0000')) throw new UnstorableValueError('a text value contains the NUL character (U+0000)');
  return json;
}
