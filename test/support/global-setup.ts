import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/platform/event-store/embedded-postgres';
import globalTeardown from './global-teardown';
import { abandonRunFolder, makeRunFolder, reapDeadRuns } from './run-folder';
import { Standby } from './standby';
import { packagedBrowser } from './test-browser';

/** Jest runs the global teardown in this same process: it stops the server through this. */
export const globalState = globalThis as { crcsEmbeddedServer?: EmbeddedPostgres; crcsStandby?: Standby };

/**
 * Once per run: the service built from the current sources, which the suites start as `npm start`
 * runs it. For every worker through the environment: the run's folder, which every test
 * writes into (TMPDIR names it, so tmpdir() is it in the tests and in what they start), one
 * embedded PostgreSQL server in it on which each test creates a database of its own, the browser
 * for the portal's suites: CHROMIUM_PATH where a machine configures one, else the Chromium that
 * `npm ci` brought, unpacked once per user and version; and with DATABASE_URL, a streaming standby
 * of that server in the same folder, for the read-replica suite.
 *
 * A run that died before its teardown (Ctrl-C, a kill) left its folder and servers: they are
 * reaped first. A Ctrl-C or SIGTERM during this run shuts its servers down and removes its folder
 * before the process ends.
 */
export default async function globalSetup(): Promise<void> {
  buildService();
  const base = tmpdir();
  for (const dir of await reapDeadRuns(base))
    console.warn(`removed ${dir}, left by a test run that did not finish, and stopped its servers`);
  const dir = makeRunFolder(base);
  removeOnSignal(dir);
  process.env.CRCS_TEST_TMP = dir;
  process.env.TMPDIR = dir;
  const [server, chromium, standby] = await Promise.allSettled([
    EmbeddedPostgres.start(join(dir, 'embedded')),
    process.env.CHROMIUM_PATH ?? packagedBrowser(),
    process.env.DATABASE_URL ? Standby.create(process.env.DATABASE_URL, join(dir, 'standby')) : undefined,
  ]);
  if (server.status === 'fulfilled') globalState.crcsEmbeddedServer = server.value;
  if (standby.status === 'fulfilled') globalState.crcsStandby = standby.value;
  if (server.status === 'rejected' || chromium.status === 'rejected' || standby.status === 'rejected') {
    // Jest runs no teardown after a failed set-up (an interrupted initdb fails it before a signal
    // handler can run): what did start must not be left running, nor the folder.
    await globalTeardown();
    throw [server, chromium, standby].flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))[0];
  }
  if (standby.value) {
    Object.assign(process.env, {
      CRCS_STANDBY_DIR: standby.value.dir,
      CRCS_STANDBY_PORT: String(standby.value.port),
      CRCS_STANDBY_BINDIR: standby.value.bindir,
    });
  }
  process.env.CRCS_EMBEDDED_URL = server.value.url;
  process.env.CRCS_CHROMIUM = chromium.value;
}

/**
 * `npm run build` (incremental: about a second when the build is current, as after `npm ci`), so
 * that the service the suites start (test/support/service-process.ts) is the current sources'.
 */
function buildService(): void {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: join(__dirname, '../..'), encoding: 'utf8' });
  if (build.status !== 0)
    throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}${build.error?.message ?? ''}`);
}

function removeOnSignal(dir: string): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      abandonRunFolder(dir);
      process.kill(process.pid, signal);
    });
  }
}
