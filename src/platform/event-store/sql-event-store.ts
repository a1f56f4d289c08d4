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
import type { Projector } from '../projections/projector';
import { CoalescingQueue } from '../coalescing-queue';
import { ADVANCE_CHECKPOINTS, applyBatch } from '../projections/runner';
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
/** The chain-head lock, with the log's last position and the streams' revisions in the same round trip (see writeBatch). */
const LOCK_HEAD = prepared(`select h.position, h.hash, (select position from event_store_head where id) as seen,
  (select max(position) from events) as last, (select coalesce(json_agg(json_build_array(v.stream_id, v.revision)), '[]') from (${REVISIONS}) v) as revisions
  from event_store_head h where h.id for update`);
/**
 * What closes a batch, in one round trip: the Merkle tree's new nodes (merkle-store.ts), the inline
 * projectors' checkpoints (projections/runner.ts) and the head. $1: the head's position, $2: the
 * inline projectors' names, $3: the head's hash, $4 to $6: the nodes. One text whatever the batch.
 */
const CLOSE_BATCH = prepared(`with nodes as (${insertNodes(4)}), checkpoints as (${ADVANCE_CHECKPOINTS})
  update event_store_head set position = $1, hash = $3 where id`);

/**
 * The event store on one SQL dialect, through the `Database` port.
 *
 * Every append runs in a transaction that first locks the chain head row, so appends from any
 * number of processes are serialized on it: positions stay gap-free, the chain never forks and
 * commits become visible in position order. Appends arriving while a transaction is open are
 * queued and written in the next transaction together (group commit), by a fixed number of
 * set-based statements however many appends the batch holds: the head lock is held for as few round
 * trips as possible. When one append fails, the batch is written again append by append, each in
 * its own savepoint, so that it does not fail its neighbours. The Merkle tree's new nodes are
 * written in the same transaction, from a frontier kept in memory between batches.
 */
export class SqlEventStore extends EventStore {
  /** Group commit: the appends that arrive while a batch commits are the next batch (`nextBatch` says how many). */
  private readonly queue = new CoalescingQueue<PendingAppend, Outcome>((batch) => this.commitBatch(batch), nextBatch);
  private readonly listeners = new Set<(events: StoredEvent[]) => void>();
  private readonly headWatchers = new Set<(problem: ChainHeadProblem) => void>();
  /** The last position this process committed: the head of a log never goes back below it. */
  private committedUpTo = 0;
  private readonly inlineProjectors: Projector[];
  /** The tree's right edge as of the last commit here; reloaded when another process appended since. */
  private tree: MerkleFrontier | undefined;

  /** `writerKey`: each entry is written with its authenticator under it (packages/tlog/src/writer-mac.ts); without it, none. */
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    projectors: readonly Projector[],
    private readonly writerKey?: Buffer,
  ) {
    super();
    this.inlineProjectors = projectors.filter((p) => p.mode === 'inline');
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
   * One transaction for the whole batch. First optimistically: every append's events in one
   * INSERT, the checkpoints and the head written once. If anything in that fails (an inline
   * projector, an `inTransaction` step such as a duplicate idempotency key), the batch is written
   * again append by append, each in its own savepoint, so that only the failing append fails.
   */
  private async commitBatch(batch: PendingAppend[]): Promise<Outcome[]> {
    let written: { outcomes: Outcomes; tree: MerkleFrontier };
    try {
      written = await this.db.transaction((tx) => this.writeBatch(tx, batch, false));
    } catch (error) {
      this.tree = undefined;
      if (error instanceof ChainHeadError) for (const watcher of this.headWatchers) watcher(error.problem);
      if (batch.length === 1 || !(error instanceof BatchFailed))
        throw error instanceof BatchFailed ? error.cause : error;
      try {
        written = await this.db.transaction((tx) => this.writeBatch(tx, batch, true));
      } catch (retryError) {
        this.tree = undefined;
        throw retryError;
      }
    }
    const { outcomes } = written;
    this.tree = written.tree;
    this.committedUpTo = written.tree.size;
    const results = batch.map((pending) => outcomes.get(pending)!);
    const committed = results.flatMap((outcome) => (Array.isArray(outcome) ? outcome : []));
    if (committed.length > 0) for (const listener of this.listeners) listener(committed);
    return results;
  }

  /**
   * Under the head lock: checks every stream's revision (read in one query), chains the events and
   * writes them. `isolated`: each append in its own savepoint, rolled back alone on failure and
   * reported as its outcome. Otherwise any failure throws BatchFailed for the caller to retry isolated.
   */
  private async writeBatch(
    tx: Sql,
    batch: PendingAppend[],
    isolated: boolean,
  ): Promise<{ outcomes: Outcomes; tree: MerkleFrontier }> {
    const outcomes: Outcomes = new Map();
    const streams = [...new Set(batch.map((pending) => pending.streamId))];
    const [head] = await tx.query<{
      position: string;
      hash: string;
      seen: string;
      last: string | null;
      revisions: [string, number][];
    }>(LOCK_HEAD, [streams]);
    let chain: ChainHead = { position: Number(head.position), hash: head.hash };
    let last = Number(head.last ?? 0);
    let revisions = new Map(head.revisions);
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
    if (Number(head.seen) !== chain.position || last !== chain.position) {
      const [reread] = await tx.query<{ last: string | null }>(LAST_POSITION);
      last = Number(reread.last ?? 0);
      revisions = await currentRevisions(tx, streams);
    }
    this.checkHead(chain.position, last);
    const tree = this.tree?.size === chain.position ? this.tree.copy() : await loadFrontier(tx, chain.position);
    const accepted: Written[] = [];
    for (const pending of batch) {
      const current = revisions.get(pending.streamId) ?? 0;
      const { expectedRevision } = pending.options;
      let chained: Chained;
      try {
        if (expectedRevision !== 'any' && expectedRevision !== current) {
          throw new RevisionConflictError(pending.streamId, expectedRevision, current);
        }
        chained = await this.chained(tx, pending, chain, current);
        if (isolated) await this.writeIsolated(tx, { pending, ...chained });
      } catch (error) {
        outcomes.set(pending, { error });
        continue;
      }
      const { stored } = chained;
      outcomes.set(pending, stored);
      chain = stored[stored.length - 1];
      // A later append to the same stream in this batch must see this one's events.
      revisions.set(pending.streamId, current + stored.length);
      accepted.push({ pending, ...chained });
    }
    if (accepted.length === 0) return { outcomes, tree };
    if (!isolated) {
      await this.writeAppends(tx, accepted).catch((error: unknown) => {
        throw new BatchFailed(error);
      });
    }
    const nodes = accepted.flatMap(({ stored }) => stored.flatMap((e) => tree.append(leafHash(e.hash))));
    await tx.query(CLOSE_BATCH, [
      chain.position,
      this.inlineProjectors.map((p) => p.name),
      chain.hash,
      ...nodeParams(nodes),
    ]);
    return { outcomes, tree };
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

  private async writeIsolated(tx: Sql, append: Written): Promise<void> {
    await tx.query('savepoint append');
    try {
      await this.writeAppends(tx, [append]);
      await tx.query('release savepoint append');
    } catch (error) {
      await tx.query('rollback to savepoint append');
      throw error;
    }
  }

  /**
   * The appends' events in one INSERT, the inline projections of all of them in one batch, then each
   * append's own step, whose writes are gathered and written once for the batch: the statements do
   * not grow with the number of appends. A step sees the read models with the whole batch applied;
   * one that finds its append contradicted fails, and the isolated retry then writes each append
   * after only those before it, as if written alone.
   */
  private async writeAppends(tx: Sql, appends: Written[]): Promise<void> {
    await insertEvents(tx, appends, this.writerKey);
    const events = appends.flatMap(({ stored }) => stored);
    await applyBatch(tx, this.inlineProjectors, events);
    const appendTx = new GatheredWrites(tx);
    for (const { pending, stored } of appends) await pending.options.inTransaction?.(appendTx, stored);
    await appendTx.flush();
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

/** The append transaction with the rows the appends' steps hand to writers, written by `flush` once for all of them. */
class GatheredWrites implements AppendTx {
  private readonly rows = new Map<BatchWriter<never>, unknown[]>();

  constructor(private readonly tx: Sql) {}

  query<R>(text: string, params?: unknown[]): Promise<R[]> {
    return this.tx.query<R>(text, params);
  }

  writeLater<T>(writer: BatchWriter<T>, row: T): void {
    const rows = this.rows.get(writer) ?? [];
    rows.push(row);
    this.rows.set(writer, rows);
  }

  async flush(): Promise<void> {
    for (const [writer, rows] of this.rows) await writer.write(this.tx, rows as never[]);
  }
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

async function insertEvents(tx: Sql, appends: Written[], writerKey: Buffer | undefined): Promise<void> {
  const params: unknown[] = [];
  const rows = appends.flatMap(({ stored, texts }) =>
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
  await tx.query(prepared(insertRows('events', rows, params)), params);
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
