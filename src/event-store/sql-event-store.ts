import { randomUUID } from 'node:crypto';
import type { Clock } from '../common/clock';
import type { Projector } from '../../projections/projector';
import { applyInline } from '../../projections/runner';
import {
  EventStore,
  type AppendOptions,
  type ChainHead,
  type NewEvent,
  type StoredEvent,
} from './event-store.port';
import { EVENT_COLUMNS, toStoredEvent, type EventRow } from './event-rows';
import { entryHash } from './hash-chain';
import type { Database, Sql } from './sql';
import { RevisionConflictError, UnstorableValueError } from './event-store.errors';

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  options: AppendOptions;
  resolve: (events: StoredEvent[]) => void;
  reject: (err: unknown) => void;
}

/** Appends that wait while a batch commits are written together in the next one. */
const MAX_BATCH = 200;

/**
 * The event store on one SQL dialect, for `pg` and PGlite alike.
 *
 * Every append runs in a transaction that first locks the chain head row, so appends from any
 * number of processes are serialized on it: positions stay gap-free, the chain never forks and
 * commits become visible in position order. Appends arriving while a transaction is open are
 * queued and written in the next transaction together (group commit), each in its own savepoint
 * so that one append's conflict does not fail its neighbours.
 */
export class SqlEventStore extends EventStore {
  private queue: PendingAppend[] = [];
  private flushing = false;
  private readonly listeners = new Set<(events: StoredEvent[]) => void>();
  private readonly inlineProjectors: Projector[];

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    projectors: readonly Projector[],
  ) {
    super();
    this.inlineProjectors = projectors.filter((p) => p.mode === 'inline');
  }

  async append(streamId: string, events: NewEvent[], options: AppendOptions): Promise<StoredEvent[]> {
    if (events.length === 0) throw new Error('append needs at least one event');
    for (const e of events) assertStorable(e);
    return new Promise((resolve, reject) => {
      this.queue.push({ streamId, events, options, resolve, reject });
      if (!this.flushing) void this.flush();
    });
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

  async head(): Promise<ChainHead> {
    const [row] = await this.db.query<{ position: string; hash: string }>(
      'select position, hash from event_store_head where id',
    );
    return { position: Number(row.position), hash: row.hash };
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.commitBatch(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async commitBatch(batch: PendingAppend[]): Promise<void> {
    const outcomes = new Map<PendingAppend, StoredEvent[] | { error: unknown }>();
    try {
      await this.db.transaction(async (tx) => {
        const [head] = await tx.query<{ position: string; hash: string }>(
          'select position, hash from event_store_head where id for update',
        );
        let chain: ChainHead = { position: Number(head.position), hash: head.hash };
        const written: StoredEvent[] = [];
        for (const pending of batch) {
          // A lone append needs no savepoint: its failure rolls the whole transaction back anyway.
          const isolated = batch.length > 1;
          if (isolated) await tx.query('savepoint append');
          try {
            const stored = await this.write(tx, pending, chain);
            await applyInline(tx, this.inlineProjectors, stored);
            await pending.options.inTransaction?.(tx, stored);
            if (isolated) await tx.query('release savepoint append');
            chain = { position: stored[stored.length - 1].position, hash: stored[stored.length - 1].hash };
            written.push(...stored);
            outcomes.set(pending, stored);
          } catch (error) {
            if (!isolated) throw error;
            await tx.query('rollback to savepoint append');
            outcomes.set(pending, { error });
          }
        }
        if (written.length > 0) {
          await tx.query('update event_store_head set position = $1, hash = $2 where id', [
            chain.position,
            chain.hash,
          ]);
        }
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    const committed: StoredEvent[] = [];
    for (const pending of batch) {
      const outcome = outcomes.get(pending)!;
      if (Array.isArray(outcome)) {
        committed.push(...outcome);
        pending.resolve(outcome);
      } else {
        pending.reject(outcome.error);
      }
    }
    if (committed.length > 0) for (const listener of this.listeners) listener(committed);
  }

  private async write(tx: Sql, pending: PendingAppend, chain: ChainHead): Promise<StoredEvent[]> {
    const [current] = await tx.query<{ revision: number }>(
      'select coalesce(max(stream_revision), 0)::int as revision from events where stream_id = $1',
      [pending.streamId],
    );
    const { expectedRevision } = pending.options;
    if (expectedRevision !== 'any' && expectedRevision !== current.revision) {
      throw new RevisionConflictError(pending.streamId, expectedRevision, current.revision);
    }
    const recordedAt = this.clock.now().toISOString();
    let prev = chain;
    const stored = pending.events.map((event, i) => {
      // Hash the values as they will read back: JSON round-trip drops undefined and class identity.
      const entry = {
        position: prev.position + 1,
        entryId: randomUUID(),
        streamId: pending.streamId,
        streamRevision: current.revision + i + 1,
        type: event.type,
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: JSON.parse(JSON.stringify(event.metadata)),
        recordedAt,
        prevHash: prev.hash,
      };
      const withHash: StoredEvent = { ...entry, hash: entryHash(entry) };
      prev = { position: withHash.position, hash: withHash.hash };
      return withHash;
    });
    const params: unknown[] = [];
    const tuples = stored.map((e) => {
      const base = params.length;
      params.push(e.position, e.entryId, e.streamId, e.streamRevision, e.type);
      params.push(JSON.stringify(e.data), JSON.stringify(e.metadata), e.recordedAt, e.prevHash, e.hash);
      return `(${Array.from({ length: 10 }, (_, k) => `$${base + k + 1}`).join(', ')})`;
    });
    await tx.query(`insert into events (${EVENT_COLUMNS}) values ${tuples.join(', ')}`, params);
    return stored;
  }
}

/** PostgreSQL's jsonb cannot hold U+0000; refuse it before it can fail a whole batch. */
function assertStorable(event: NewEvent): void {
  const json = JSON.stringify([event.data, event.metadata]);
  if (json.includes('\\u0000')) throw new UnstorableValueError('a text value contains the NUL character (U+0000)');
}
