import type { StoredEvent } from '../event-store/event-store.port';
import { EVENT_COLUMNS, toStoredEvent, type EventRow } from '../event-store/event-rows';
import type { Database, Sql } from '../event-store/sql';
import type { Projector } from './projector';

const REPLAY_BATCH = 1000;

/** Feeds each projector the events of the batch it handles, all at once (inside the append transaction, for inline ones). */
export async function applyBatch(tx: Sql, projectors: readonly Projector[], events: readonly StoredEvent[]): Promise<void> {
  for (const p of projectors) {
    const handled = events.filter((event) => p.handles.includes(event.type));
    if (handled.length > 0) await p.apply(handled, tx);
  }
}

/** Inside the append transaction, once its events are applied: the inline projectors are current as of `position`. */
export async function advanceInline(tx: Sql, projectors: readonly Projector[], position: number): Promise<void> {
  if (projectors.length === 0) return;
  await tx.query('update projection_checkpoints set position = $1, updated_at = now() where name = any($2)', [
    position,
    projectors.map((p) => p.name),
  ]);
}

/**
 * Runs at start, before any request: creates read models that do not exist yet and rebuilds those
 * whose version changed, then brings each up to the head of the log.
 */
export async function prepareProjections(db: Database, projectors: readonly Projector[]): Promise<void> {
  for (const p of projectors) {
    await db.transaction(async (tx) => {
      await lockFor(tx, p);
      const [cp] = await tx.query<{ version: number }>('select version from projection_checkpoints where name = $1', [
        p.name,
      ]);
      if (!cp || cp.version !== p.version) await resetIn(tx, p);
    });
    await catchUp(db, p);
  }
}

/** Drops every read model and replays the whole log into it (`npm run projections:rebuild`). */
export async function rebuildProjections(db: Database, projectors: readonly Projector[]): Promise<void> {
  for (const p of projectors) {
    await db.transaction(async (tx) => {
      await lockFor(tx, p);
      await resetIn(tx, p);
    });
    await catchUp(db, p);
  }
}

/**
 * Applies the events after the projector's checkpoint, a batch per transaction, with the checkpoint
 * saved in the same transaction as the writes. Returns how many events it read.
 */
export async function catchUp(db: Database, p: Projector): Promise<number> {
  let total = 0;
  for (;;) {
    const read = await db.transaction(async (tx) => {
      const rows = await tx.query<EventRow>(
        `select ${EVENT_COLUMNS} from events where position > $1 order by position limit $2`,
        [await lockedCheckpoint(tx, p), REPLAY_BATCH],
      );
      await applyBatch(tx, [p], rows.map(toStoredEvent));
      if (rows.length > 0) {
        await tx.query('update projection_checkpoints set position = $1, updated_at = now() where name = $2', [
          rows[rows.length - 1].position,
          p.name,
        ]);
      }
      return rows.length;
    });
    total += read;
    if (read < REPLAY_BATCH) return total;
  }
}

/**
 * An inline projector is written by appends under the chain-head lock, so replaying it takes that
 * lock too; an async projector needs only its own checkpoint row, so it never holds up appends.
 */
async function lockFor(tx: Sql, p: Projector): Promise<void> {
  if (p.mode === 'inline') {
    await tx.query('select 1 from event_store_head where id for update');
  } else {
    // Version 0 marks a read model whose tables do not exist yet, so that prepareProjections builds it.
    await tx.query(
      `insert into projection_checkpoints (name, version, position, updated_at) values ($1, 0, 0, now())
       on conflict (name) do nothing`,
      [p.name],
    );
    await tx.query('select 1 from projection_checkpoints where name = $1 for update', [p.name]);
  }
}

/**
 * Takes `lockFor`'s lock and reads the checkpoint. An async projector's row exists once
 * prepareProjections ran, so locking it and reading it is one statement: the runner does this on
 * every wake under load, beside the appends.
 */
async function lockedCheckpoint(tx: Sql, p: Projector): Promise<number> {
  if (p.mode === 'inline') await tx.query('select 1 from event_store_head where id for update');
  const [cp] = await tx.query<{ position: string }>(
    `select position from projection_checkpoints where name = $1 ${p.mode === 'async' ? 'for update' : ''}`,
    [p.name],
  );
  return Number(cp.position);
}

async function resetIn(tx: Sql, p: Projector): Promise<void> {
  await p.reset(tx);
  await tx.query(
    `insert into projection_checkpoints (name, version, position, updated_at) values ($1, $2, 0, now())
     on conflict (name) do update set version = excluded.version, position = 0, updated_at = now()`,
    [p.name, p.version],
  );
}

/**
 * Keeps the async projectors current: woken by local commits, and by a poll for events other
 * service processes appended. A failing projector is retried on the next wake, never skipped.
 */
export class AsyncProjectionRunner {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly projectors: readonly Projector[],
    private readonly onError: (projector: string, error: unknown) => void,
  ) {}

  start(pollMs: number): void {
    this.timer = setInterval(() => this.wake(), pollMs);
    this.timer.unref();
    this.wake();
  }

  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runAll().finally(() => {
      this.running = undefined;
      if (this.again && this.timer) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves when every projector has caught up with what was committed before the call. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    await this.runAll();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    while (this.running) await this.running;
  }

  private async runAll(): Promise<void> {
    for (const p of this.projectors) {
      if (p.mode !== 'async') continue;
      try {
        await catchUp(this.db, p);
      } catch (error) {
        this.onError(p.name, error);
      }
    }
  }
}

/**
 * Runs `read` in one repeatable-read transaction, so that a projector batch committed halfway through
 * cannot mix two states, and says which log position these read models are current as of: async
 * ones lag the log by a moment.
 */
export function readAsOf<T>(db: Database, projectors: readonly Projector[], read: (tx: Sql) => Promise<T>): Promise<{ result: T; as_of_position: number }> {
  return db.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read');
    const [row] = await tx.query<{ position: string | null }>('select min(position) as position from projection_checkpoints where name = any($1)', [
      projectors.map((p) => p.name),
    ]);
    return { result: await read(tx), as_of_position: Number(row.position ?? 0) };
  });
}
