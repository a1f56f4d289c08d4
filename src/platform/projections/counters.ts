import type { Sql } from '../event-store/sql';

/**
 * Adds to the counters of one row of an aggregate table (created at these values, the others at
 * their defaults, when missing) and sets its `latest` columns. An event touches a row once, so the row's `last_position` guard makes
 * applying the same event again change nothing, as projectors must (projector.ts).
 */
export async function addToRow(
  tx: Sql,
  table: string,
  key: Record<string, unknown>,
  counters: Record<string, number>,
  position: number,
  latest: Record<string, unknown> = {},
): Promise<void> {
  const columns = [...Object.keys(key), ...Object.keys(counters), ...Object.keys(latest), 'last_position'];
  const values = [...Object.values(key), ...Object.values(counters), ...Object.values(latest), position];
  const updates = [
    ...Object.keys(counters).map((column) => `${column} = ${table}.${column} + excluded.${column}`),
    ...[...Object.keys(latest), 'last_position'].map((column) => `${column} = excluded.${column}`),
  ];
  await tx.query(
    `insert into ${table} (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})
     on conflict (${Object.keys(key).join(', ')}) do update set ${updates.join(', ')}
     where ${table}.last_position < excluded.last_position`,
    values,
  );
}
