import type { Sql } from '../../src/platform/event-store/sql';

/** Every row of every read-model table (`rm_` prefix), in a stable order, for comparing two builds. */
export async function dumpReadModels(db: Sql): Promise<Record<string, unknown[]>> {
  const tables = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables
     where table_schema = current_schema() and table_name like 'rm\\_%' order by table_name`,
  );
  const dump: Record<string, unknown[]> = {};
  for (const { table_name: tableName } of tables) {
    const rows = await db.query<{ row: string }>(`select t::text as row from ${tableName} t order by 1`);
    dump[tableName] = rows.map((r) => r.row);
  }
  return dump;
}
