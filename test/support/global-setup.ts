import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteDatabase } from '../../src/event-store/pglite-database';

/**
 * initdb takes seconds in WASM: run it once per test run and let every test's PGlite database
 * start from its dump. Workers inherit the path through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const db = await PgliteDatabase.open();
  const path = join(mkdtempSync(join(tmpdir(), 'crcs-test-')), 'pglite.tar');
  writeFileSync(path, Buffer.from(await (await db.snapshot()).arrayBuffer()));
  await db.close();
  process.env.CRCS_PGLITE_SNAPSHOT = path;
}
