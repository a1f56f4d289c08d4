import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/platform/event-store/embedded-postgres';
import { abandonRunFolder, makeRunFolder, reapDeadRuns, removeRunFolder } from './run-folder';
import { packagedBrowser } from './test-browser';

/** Jest runs the global teardown in this same process: it stops the server through this. */
export const globalState = globalThis as { crcsEmbeddedServer?: EmbeddedPostgres };

/**
 * Once per run, for every worker through the environment: the run's folder, which every test
 * writes into (TMPDIR names it, so tmpdir() is it in the tests and in what they start), one
 * embedded PostgreSQL server in it on which each test creates a database of its own, and the
 * browser for the portal's suites: CHROMIUM_PATH where a machine configures one, else the
 * Chromium that `npm ci` brought, unpacked once per user and version.
 *
 * A run that died before its teardown (Ctrl-C, a kill) left its folder and servers: they are
 * reaped first. A Ctrl-C or SIGTERM during this run shuts its servers down and removes its folder
 * before the process ends.
 */
export default async function globalSetup(): Promise<void> {
  const base = tmpdir();
  for (const dir of await reapDeadRuns(base)) console.warn(`removed ${dir}, left by a test run that did not finish, and stopped its servers`);
  const dir = makeRunFolder(base);
  removeOnSignal(dir);
  process.env.CRCS_TEST_TMP = dir;
  process.env.TMPDIR = dir;
  const [server, chromium] = await Promise.allSettled([EmbeddedPostgres.start(join(dir, 'embedded')), process.env.CHROMIUM_PATH ?? packagedBrowser()]);
  if (server.status === 'rejected' || chromium.status === 'rejected') {
    // Jest runs no teardown after a failed set-up (an interrupted initdb fails it before a signal handler can run).
    if (server.status === 'fulfilled') await server.value.stop();
    await removeRunFolder(dir);
    throw server.status === 'rejected' ? server.reason : (chromium as PromiseRejectedResult).reason;
  }
  globalState.crcsEmbeddedServer = server.value;
  process.env.CRCS_EMBEDDED_URL = server.value.url;
  process.env.CRCS_CHROMIUM = chromium.value;
}

function removeOnSignal(dir: string): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      abandonRunFolder(dir);
      process.kill(process.pid, signal);
    });
  }
}
