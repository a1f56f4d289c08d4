import Chromium from '@sparticuz/chromium';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/platform/event-store/embedded-postgres';
import globalTeardown from './global-teardown';
import { Standby } from './standby';

/** Jest runs the global teardown in this same process: it stops the server through this. */
export const globalState = globalThis as { crcsEmbeddedServer?: EmbeddedPostgres; crcsStandby?: Standby };

/**
 * Once per run, for every worker through the environment: a temporary folder for what tests write,
 * one embedded PostgreSQL server in it on which each test creates a database of its own, the
 * browser for the portal's suites: CHROMIUM_PATH where a machine configures one, else the Chromium
 * that `npm ci` brought, unpacked here once so that parallel suites never race to unpack it; and
 * with DATABASE_URL, a streaming standby of that server in the same folder, for the read-replica suite.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crcs-test-'));
  process.env.CRCS_TEST_TMP = dir;
  // Searchable (not listable) for the server's OS account when the tests run as root.
  chmodSync(dir, 0o711);
  const [server, chromium, standby] = await Promise.allSettled([
    EmbeddedPostgres.start(join(dir, 'embedded')),
    process.env.CHROMIUM_PATH ?? Chromium.executablePath(),
    process.env.DATABASE_URL ? Standby.create(process.env.DATABASE_URL, join(dir, 'standby')) : undefined,
  ]);
  if (server.status === 'fulfilled') globalState.crcsEmbeddedServer = server.value;
  if (standby.status === 'fulfilled') globalState.crcsStandby = standby.value;
  if (server.status === 'rejected' || chromium.status === 'rejected' || standby.status === 'rejected') {
    // Jest runs no teardown after a failed set-up: what did start must not be left running, nor the folder.
    await globalTeardown();
    throw [server, chromium, standby].flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))[0];
  }
  if (standby.value) {
    Object.assign(process.env, { CRCS_STANDBY_DIR: standby.value.dir, CRCS_STANDBY_PORT: String(standby.value.port), CRCS_STANDBY_BINDIR: standby.value.bindir });
  }
  process.env.CRCS_EMBEDDED_URL = server.value.url;
  process.env.CRCS_CHROMIUM = chromium.value;
}
