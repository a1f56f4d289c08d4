import { insertRows, prepared, type Sql } from '../event-store/sql';

/** What one event adds to one row of an aggregate table. */
export interface CounterChange {
  key: Record<string, unknown>;
  counters: Record<string, number>;
  position: number;
  /** Columns that take the latest event's values. */
  latest?: Record<string, unknown>;
}

/**
 * Adds a batch's changes to an aggregate table with one upsert: summed per row in memory first, so
 * the statement has a row per key, not per event. A row missing is created at the sums (a counter no
 * change names at 0). Each row keeps the position of the last event added (`last_position`) and
 * takes a batch's sums only when the batch ends after it: a batch is applied with its checkpoint in
 * one transaction, so a replay of it changes nothing, as projectors must (projector.ts).
 */
export async function addToRows(tx: Sql, table: string, changes: readonly CounterChange[]): Promise<void> {
  if (changes.length === 0) return;
  const rows = new Map<string, Required<CounterChange>>();
  for (const { key, counters, position, latest = {} } of changes) {
    const id = JSON.stringify(Object.values(key));
    const row = rows.get(id) ?? { key, counters: {}, position, latest };
    for (const [column, n] of Object.entries(counters)) row.counters[column] = (row.counters[column] ?? 0) + n;
    if (position >= row.position) Object.assign(row, { position, latest });
    rows.set(id, row);
  }
  const keyColumns = Object.keys(changes[0].key);
  const counterColumns = [...new Set(changes.flatMap((change) => Object.keys(change.counters)))];
  const latestColumns = Object.keys(changes[0].latest ?? {});
  const params: unknown[] = [];
  const values = [...rows.values()].map((row) => ({
    ...row.key,
    ...Object.fromEntries(counterColumns.map((column) => [column, row.counters[column] ?? 0])),
    ...row.latest,
    last_position: row.position,
  }));
  const updates = [
    ...counterColumns.map((column) => `${column} = ${table}.${column} + excluded.${column}`),
    ...[...latestColumns, 'last_position'].map((column) => `${column} = excluded.${column}`),
  ];
  await tx.query(
    prepared(`${insertRows(table, values, params)}
     on conflict (${keyColumns.join(', ')}) do update set ${updates.join(', ')}
     where ${table}.last_position < excluded.last_position`),
    params,
  );
}
