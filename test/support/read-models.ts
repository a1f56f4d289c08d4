import type { Sql } from '../../src/platform/event-store/sql';
import { waitFor } from './wait';

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

/** Waits until every read model has applied the log up to its head as it is now: the async ones follow it after the append. */
export async function readModelsCaughtUp(db: Sql): Promise<void> {
  const [{ position: head }] = await db.query<{ position: string }>('select position from event_store_head');
  await waitFor(`every read model to reach log position ${head}`, async () => {
    const [{ least }] = await db.query<{ least: string }>('select min(position) as least from projection_checkpoints');
    return Number(least) >= Number(head);
  });
}
