import type { StoredEvent } from '../event-store/event-store.port';
import { EVENT_COLUMNS, toStoredEvent } from '../event-store/event-rows';
import { type EventRow } from '@crcs/tlog';
import { prepared, type Database, type Sql } from '../event-store/sql';
import type { Projector } from './projector';

const REPLAY_BATCH = 1000;
/** The most a busy log makes the read models lag behind the runs themselves. */
const RUN_GAP_MS = 50;

const LOCK_CHECKPOINTS = prepared(
  'select name, position from projection_checkpoints where name = any($1) order by name for update',
);
const EVENTS_AFTER = prepared(
  `select ${EVENT_COLUMNS} from events where position > $1 and ($2::bigint is null or position <= $2) order by position limit $3`,
);
const CHECKPOINTS = prepared('select min(position) as position from projection_checkpoints where name = any($1)');
const ADVANCE = prepared('update projection_checkpoints set position = $1, updated_at = now() where name = any($2)');

/** Feeds each projector the events of the batch it handles, all at once. */
export async function applyBatch(
  tx: Sql,
  projectors: readonly Projector[],
  events: readonly StoredEvent[],
): Promise<void> {
  for (const p of projectors) {
    const handled = events.filter((event) => p.handles.includes(event.type));
    if (handled.length > 0) await p.apply(handled, tx);
  }
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
    await catchUp(db, [p]);
  }
}

/** Drops every read model and replays the whole log into it (`npm run projections:rebuild`). */
export async function rebuildProjections(db: Database, projectors: readonly Projector[]): Promise<void> {
  for (const p of projectors) {
    await db.transaction(async (tx) => {
      await lockFor(tx, p);
      await resetIn(tx, p);
    });
    await catchUp(db, [p]);
  }
}

/**
 * Applies the events after the projectors' checkpoints, a batch per transaction, with the
 * checkpoints saved in the same transaction as the writes: several projectors share each read of
 * the log and each commit. Returns how many events it read.
 *
 * A projector needs only its own checkpoint row, so it never holds up appends.
 * Checkpoint rows are locked in name order, so two processes' runners queue instead of deadlocking.
 * A projector that reads other read models (`reads`) not in this run goes no further than they have.
 */
export async function catchUp(db: Database, projectors: readonly Projector[]): Promise<number> {
  if (projectors.length === 0) return 0;
  const names = projectors.map((p) => p.name);
  let total = 0;
  for (;;) {
    const read = await db.transaction(async (tx) => {
      const locked = await tx.query<{ name: string; position: string }>(LOCK_CHECKPOINTS, [names]);
      const checkpoints = new Map(locked.map((row) => [row.name, Number(row.position)]));
      const rows = await tx.query<EventRow>(EVENTS_AFTER, [
        Math.min(...checkpoints.values()),
        await readModelsReached(tx, projectors),
        REPLAY_BATCH,
      ]);
      if (rows.length === 0) return 0;
      const events = rows.map(toStoredEvent);
      for (const p of projectors) {
        const after = checkpoints.get(p.name)!;
        await applyBatch(
          tx,
          [p],
          events.filter((event) => event.position > after),
        );
      }
      await tx.query(ADVANCE, [rows[rows.length - 1].position, names]);
      return rows.length;
    });
    total += read;
    if (read < REPLAY_BATCH) return total;
  }
}

/**
 * How far the read models that the projectors read, outside this run, have come (unbounded when
 * none): their rows up to it were committed with their checkpoints, so a later statement sees them.
 */
async function readModelsReached(tx: Sql, projectors: readonly Projector[]): Promise<number | null> {
  const running = new Set(projectors.map((p) => p.name));
  const outside = [...new Set(projectors.flatMap((p) => p.reads ?? []))].filter((name) => !running.has(name));
  if (outside.length === 0) return null;
  const [row] = await tx.query<{ position: string | null }>(CHECKPOINTS, [outside]);
  return Number(row.position ?? 0);
}

/** The lock `catchUp` takes, for resetting a read model. */
async function lockFor(tx: Sql, p: Projector): Promise<void> {
  // Version 0 marks a read model whose tables do not exist yet, so that prepareProjections builds it.
  await tx.query(
    `insert into projection_checkpoints (name, version, position, updated_at) values ($1, 0, 0, now())
     on conflict (name) do nothing`,
    [p.name],
  );
  await tx.query('select 1 from projection_checkpoints where name = $1 for update', [p.name]);
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
 * Keeps the read models current: woken by local commits, and by a poll for events other
 * service processes appended. A failing projector is retried on the next wake, never skipped.
 */
export class AsyncProjectionRunner {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private next: NodeJS.Timeout | undefined;
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

  /**
   * Runs now, or once the run under way is over: then after RUN_GAP_MS, so that under load each
   * run takes the commits of that gap at once rather than a transaction per commit.
   */
  wake(): void {
    if (this.running || this.next) {
      this.again = true;
      return;
    }
    this.running = this.runAll().finally(() => {
      this.running = undefined;
      if (this.again && this.timer) {
        this.again = false;
        this.next = setTimeout(() => {
          this.next = undefined;
          this.wake();
        }, RUN_GAP_MS);
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
    clearTimeout(this.next);
    this.timer = this.next = undefined;
    while (this.running) await this.running;
  }

  /** All together, one transaction per batch; when that fails, each alone, so that one failing projector holds up no other. */
  private async runAll(): Promise<void> {
    try {
      await catchUp(this.db, this.projectors);
    } catch {
      for (const p of this.projectors) {
        try {
          await catchUp(this.db, [p]);
        } catch (error) {
          this.onError(p.name, error);
        }
      }
    }
  }
}
