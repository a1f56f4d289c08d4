import Chromium from '@sparticuz/chromium';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/platform/event-store/embedded-postgres';

/** Jest runs the global teardown in this same process: it stops the server through this. */
export const globalState = globalThis as { crcsEmbeddedServer?: EmbeddedPostgres };

/**
 * Once per run, for every worker through the environment: a temporary folder for what tests write,
 * one embedded PostgreSQL server in it on which each test creates a database of its own, and the
 * browser for the portal's suites: CHROMIUM_PATH where a machine configures one, else the Chromium
 * that `npm ci` brought, unpacked here once so that parallel suites never race to unpack it.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crcs-test-'));
  process.env.CRCS_TEST_TMP = dir;
  // Searchable (not listable) for the server's OS account when the tests run as root.
  chmodSync(dir, 0o711);
  const [server, chromium] = await Promise.all([
    EmbeddedPostgres.start(join(dir, 'embedded')),
    process.env.CHROMIUM_PATH ?? Chromium.executablePath(),
  ]);
  globalState.crcsEmbeddedServer = server;
  process.env.CRCS_EMBEDDED_URL = server.url;
  process.env.CRCS_CHROMIUM = chromium;
}
