import type { Database, Sql } from '../../src/platform/event-store/sql';
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

/**
 * Holds the named projectors (their checkpoint rows locked in a transaction of its own) until the
 * returned function is called: what a lagging read model looks like to the service's reads.
 */
export async function holdProjectors(db: Database, ...names: string[]): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const held = db.transaction(async (tx) => {
    await tx.query('select 1 from projection_checkpoints where name = any($1) order by name for update', [names]);
    locked();
    await released;
  });
  await holding;
  return async () => {
    release();
    await held;
  };
}

/** The log position the named projector's read model has applied. */
export async function checkpointOf(db: Sql, name: string): Promise<number> {
  const [{ position }] = await db.query<{ position: string }>(
    'select position from projection_checkpoints where name = $1',
    [name],
  );
  return Number(position);
}
