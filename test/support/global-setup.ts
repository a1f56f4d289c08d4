import Chromium from '@sparticuz/chromium';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteDatabase } from '../../src/platform/event-store/pglite-database';

/**
 * Once per run, for every worker through the environment: a temporary folder for what tests write,
 * PGlite's initdb as a dump (it takes seconds in WASM), and the browser for the portal's suites:
 * CHROMIUM_PATH where a machine configures one, else the Chromium that `npm ci` brought, unpacked
 * here once so that parallel suites never race to unpack it.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crcs-test-'));
  process.env.CRCS_TEST_TMP = dir;
  const [snapshot, chromium] = await Promise.all([
    PgliteDatabase.open().then(async (db) => {
      const dump = Buffer.from(await (await db.snapshot()).arrayBuffer());
      await db.close();
      return dump;
    }),
    process.env.CHROMIUM_PATH ?? Chromium.executablePath(),
  ]);
  const path = join(dir, 'pglite.tar');
  writeFileSync(path, snapshot);
  process.env.CRCS_PGLITE_SNAPSHOT = path;
  process.env.CRCS_CHROMIUM = chromium;
}
