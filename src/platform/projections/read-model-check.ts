import { randomBytes } from 'node:crypto';
import { EVENT_COLUMNS, toStoredEvent } from '../event-store/event-rows';
import { type EventRow } from '@crcs/tlog';
import type { Database, Sql } from '../event-store/sql';
import type { Projector } from './projector';

const REPLAY_BATCH = 1000;

/** A row of a read model that is not what the log gives: `field` is `row` when one side has no such row. */
export interface ReadModelRowDifference {
  read_model: string;
  table: string;
  /** The row's primary key, `column=value` joined by commas. */
  row: string;
  field: string;
  /** JSON of the value stored; null when the read model has no such row. */
  stored: string | null;
  /** JSON of the value the log gives; null when the log gives no such row. */
  from_log: string | null;
}

export interface ReadModelComparison {
  /** Rows compared: those the log gives and those stored that it does not. */
  checked_count: number;
  differences: ReadModelRowDifference[];
}

/** Thrown to roll the comparison's transaction back: no scratch table, and no notification of a replayed revocation, is ever committed. */
const ROLLBACK = new Error('read-model comparison done');

/**
 * Replays the log into empty copies of the projectors' tables, in a schema of the transaction's own,
 * and compares them with the stored tables row by row. It runs each projector's own code over each
 * event up to that projector's checkpoint, in one repeatable-read snapshot: an async read model that
 * lags the log is compared as of where it is, and a batch applied meanwhile is in both or in neither.
 */
export async function compareWithLog(db: Database, projectors: readonly Projector[]): Promise<ReadModelComparison> {
  const comparison: ReadModelComparison = { checked_count: 0, differences: [] };
  await db
    .transaction(async (tx) => {
      await tx.query('set transaction isolation level repeatable read');
      const [{ home }] = await tx.query<{ home: string }>('select current_schema() as home');
      const scratch = `read_model_check_${randomBytes(6).toString('hex')}`;
      for (const p of projectors) {
        const found = await compareOne(tx, p, home, scratch);
        comparison.checked_count += found.checked_count;
        comparison.differences.push(...found.differences);
      }
      throw ROLLBACK;
    })
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error;
    });
  return comparison;
}

async function compareOne(tx: Sql, p: Projector, home: string, scratch: string): Promise<ReadModelComparison> {
  const [checkpoint] = await tx.query<{ position: string }>(
    `select position from ${home}.projection_checkpoints where name = $1`,
    [p.name],
  );
  await tx.query(`drop schema if exists ${scratch} cascade`);
  await tx.query(`create schema ${scratch}`);
  // Only the scratch schema is searched, so that `reset` (drop table if exists ...) can reach no stored table.
  await tx.query(`set local search_path to ${scratch}`);
  await p.reset(tx);
  const tables = await tx.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = $1 order by table_name`,
    [scratch],
  );
  const upTo = Number(checkpoint?.position ?? 0);
  for (let after = 0; after < upTo;) {
    const rows = await tx.query<EventRow>(
      `select ${EVENT_COLUMNS} from ${home}.events where position > $1 and position <= $2 and event_type = any($3)
       order by position limit $4`,
      [after, upTo, p.handles, REPLAY_BATCH],
    );
    if (rows.length > 0) await p.apply(rows.map(toStoredEvent), tx);
    after = rows.length < REPLAY_BATCH ? upTo : Number(rows[rows.length - 1].position);
  }
  await tx.query('reset search_path');
  const comparison: ReadModelComparison = { checked_count: 0, differences: [] };
  for (const { table_name: table } of tables) {
    const key = await primaryKey(tx, scratch, table);
    const fromLog = await tx.query<{ row: Record<string, unknown> }>(
      `select to_jsonb(t) as row from ${scratch}.${table} t except select to_jsonb(t) from ${home}.${table} t`,
    );
    const stored = await tx.query<{ row: Record<string, unknown> }>(
      `select to_jsonb(t) as row from ${home}.${table} t except select to_jsonb(t) from ${scratch}.${table} t`,
    );
    const [{ count }] = await tx.query<{ count: string }>(`select count(*) from ${scratch}.${table}`);
    comparison.checked_count += Number(count) + stored.length;
    const keyOf = (row: Record<string, unknown>) => key.map((column) => `${column}=${String(row[column])}`).join(',');
    const given = new Map(fromLog.map(({ row }) => [keyOf(row), row]));
    const kept = new Map(stored.map(({ row }) => [keyOf(row), row]));
    for (const id of [...new Set([...given.keys(), ...kept.keys()])].sort()) {
      const want = given.get(id);
      const have = kept.get(id);
      const at = { read_model: p.name, table, row: id };
      if (!want || !have) {
        comparison.differences.push({ ...at, field: 'row', stored: json(have), from_log: json(want) });
        continue;
      }
      for (const field of Object.keys(want)) {
        if (JSON.stringify(want[field]) !== JSON.stringify(have[field]))
          comparison.differences.push({ ...at, field, stored: json(have[field]), from_log: json(want[field]) });
      }
    }
  }
  return comparison;
}

/** The columns of the table's primary key (every column, for a table without one). */
async function primaryKey(tx: Sql, schema: string, table: string): Promise<string[]> {
  const rows = await tx.query<{ column: string }>(
    `select a.attname as column from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
     where i.indrelid = ($1 || '.' || $2)::regclass and i.indisprimary order by a.attnum`,
    [schema, table],
  );
  if (rows.length > 0) return rows.map((row) => row.column);
  const columns = await tx.query<{ column: string }>(
    `select column_name as column from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position`,
    [schema, table],
  );
  return columns.map((row) => row.column);
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
