import { setTimeout as sleep } from 'node:timers/promises';
import { setAnswerHeader } from '../answer-context';
import { DomainError } from '../errors/domain-error';
import type { Database, Sql } from '../event-store/sql';
import type { Projector } from './projector';

/** On an answer read from read models: the log position they reflected. */
export const LOG_POSITION_HEADER = 'X-Log-Position';
/** How long a read waits for its read models to reach `min_position`. */
export const MIN_POSITION_WAIT_MS = 2000;
/** The Retry-After of the 503 when they did not: read models catch up in batches of a moment. */
export const MIN_POSITION_RETRY_AFTER_S = 1;
const POLL_MS = 20;

export class LogPositionNotReachedError extends DomainError {
  constructor(
    readonly wanted: number,
    readonly reached: number,
  ) {
    super(
      'LOG_POSITION_NOT_REACHED',
      `The read models of this answer reached log position ${reached}, not min_position ${wanted}, within ${MIN_POSITION_WAIT_MS / 1000} s; retry after Retry-After`,
      503,
    );
  }

  override body() {
    return { ...super.body(), log_position: this.reached };
  }
}

/**
 * Runs `read` in one repeatable-read transaction, so that a projector batch committed halfway through
 * cannot mix two states, and says which log position these read models reflect (the least of their
 * checkpoints), in the answer's X-Log-Position header and in what it returns. With `minPosition`, it
 * first waits up to MIN_POSITION_WAIT_MS for them to reach it, then refuses with 503 and Retry-After:
 * a client that wrote at position p reads what it wrote with `min_position=p`.
 */
export async function readAsOf<T>(
  db: Database,
  projectors: readonly Projector[],
  read: (tx: Sql) => Promise<T>,
  minPosition = 0,
): Promise<{ result: T; as_of_position: number }> {
  const answer = await readOnceReached(db, projectors, read, minPosition);
  setAnswerHeader(LOG_POSITION_HEADER, String(answer.as_of_position));
  return answer;
}

/**
 * For a command that decides over a set of a read model's rows (the tips of a pool, those in no
 * pool): reads them once the read models have applied every entry the log held when the command
 * started, waiting as `min_position` does (503 LOG_POSITION_NOT_REACHED after MIN_POSITION_WAIT_MS).
 * What was appended after that is the command's to check inside its append transaction, under the
 * chain-head lock, against the entries after `as_of_position`.
 */
export async function readCaughtUp<T>(
  db: Database,
  projectors: readonly Projector[],
  read: (tx: Sql) => Promise<T>,
): Promise<{ result: T; as_of_position: number }> {
  const [head] = await db.query<{ position: string }>('select position from event_store_head where id');
  return readOnceReached(db, projectors, read, Number(head?.position ?? 0));
}

async function readOnceReached<T>(
  db: Database,
  projectors: readonly Projector[],
  read: (tx: Sql) => Promise<T>,
  minPosition: number,
): Promise<{ result: T; as_of_position: number }> {
  const names = projectors.map((p) => p.name);
  const deadline = Date.now() + MIN_POSITION_WAIT_MS;
  for (;;) {
    const answer = await db.transaction(
      async (tx): Promise<{ result: T; as_of_position: number } | { reached: number }> => {
        await tx.query('set transaction isolation level repeatable read');
        const [row] = await tx.query<{ position: string | null }>(
          'select min(position) as position from projection_checkpoints where name = any($1)',
          [names],
        );
        const position = Number(row.position ?? 0);
        return position < minPosition ? { reached: position } : { result: await read(tx), as_of_position: position };
      },
    );
    if ('result' in answer) return answer;
    if (Date.now() >= deadline) {
      setAnswerHeader('retry-after', String(MIN_POSITION_RETRY_AFTER_S));
      throw new LogPositionNotReachedError(minPosition, answer.reached);
    }
    await sleep(POLL_MS);
  }
}

/**
 * The entries a read model has not applied yet: those of the types its projector handles after its
 * checkpoint, as a `from` item with `position`, `event_type` and `data`. A statement that reads the
 * read model's rows with it reads both in one snapshot, in which the checkpoint and the rows it
 * covers were committed together: no record is missed, none counted twice. The range is the read
 * model's lag, a short stretch of the log's primary key. Names and types are the code's own, never
 * a client's.
 */
export function entriesNotApplied(projector: Projector): string {
  const types = projector.handles.map((type) => `'${type}'`).join(', ');
  return `(select e.position, e.event_type, e.data from events e
    where e.position > (select position from projection_checkpoints where name = '${projector.name}')
      and e.event_type in (${types}))`;
}

/** How far one read model is behind the head of the log. */
export interface ProjectionLag {
  name: string;
  /** Every read model is built after the append; /health still says so, as it did beside `inline` in API 4.1.0. */
  mode: 'async';
  position: number;
  lag_entries: number;
  /** How long the oldest entry it has not applied has been in the log; 0 when it applied them all. */
  lag_ms: number;
}

/** Each read model's checkpoint against the head of the log, in one statement. */
export async function projectionLag(db: Sql, projectors: readonly Projector[]): Promise<ProjectionLag[]> {
  const rows = await db.query<{ name: string; position: string; lag_entries: string; lag_ms: number | null }>(
    `select c.name, c.position, greatest(h.position - c.position, 0) as lag_entries,
       (select (extract(epoch from clock_timestamp() - e.recorded_at) * 1000)::float8 from events e where e.position = c.position + 1) as lag_ms
     from projection_checkpoints c cross join event_store_head h where h.id and c.name = any($1) order by c.name`,
    [projectors.map((p) => p.name)],
  );
  return rows.map((row) => ({
    name: row.name,
    mode: 'async',
    position: Number(row.position),
    lag_entries: Number(row.lag_entries),
    lag_ms: Math.max(0, Math.round(row.lag_ms ?? 0)),
  }));
}
