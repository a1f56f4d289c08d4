import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/platform/event-store/embedded-postgres';
import { migrate } from '../../src/platform/event-store/migrations';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import globalTeardown from './global-teardown';
import { abandonRunFolder, makeRunFolder, reapDeadRuns } from './run-folder';
import { Standby } from './standby';
import { packagedBrowser } from './test-browser';
import { TEMPLATE_ENV, adminQuery, withDatabase } from './test-database';

/** Jest runs the global teardown in this same process: it stops the server through this. */
export const globalState = globalThis as {
  crcsEmbeddedServer?: EmbeddedPostgres;
  crcsStandby?: Standby;
  crcsTemplates?: { server: string; name: string }[];
};

/**
 * Once per run of the int tier: the service built from the current sources, which the suites start
 * as `npm start` runs it; for every worker through the environment: the run's folder, which every
 * test writes into (TMPDIR names it, so tmpdir() is it in the tests and in what they start), and one
 * PostgreSQL server, DATABASE_URL's when it is set, else an embedded server in the run's folder, with
 * a migrated template database that each test's database is cloned from.
 */
export default function globalSetup(): Promise<void> {
  return setUpRun({ e2e: false });
}

/**
 * The int tier's run, and for the e2e tier (`e2e: true`) also: the embedded server beside
 * DATABASE_URL's, so that its suites run on both drivers; the browser for the portal's suites:
 * CHROMIUM_PATH where a machine configures one, else the Chromium that `npm ci` brought, unpacked once
 * per user and version; and with DATABASE_URL, a streaming standby of that server in the run's folder,
 * for the read-replica suite.
 *
 * A run that died before its teardown (Ctrl-C, a kill) left its folder and servers: they are
 * reaped first. A Ctrl-C or SIGTERM during this run shuts its servers down and removes its folder
 * before the process ends.
 */
export async function setUpRun({ e2e }: { e2e: boolean }): Promise<void> {
  buildService();
  const base = tmpdir();
  for (const dir of await reapDeadRuns(base))
    console.warn(`removed ${dir}, left by a test run that did not finish, and stopped its servers`);
  const dir = makeRunFolder(base);
  removeOnSignal(dir);
  process.env.CRCS_TEST_TMP = dir;
  process.env.TMPDIR = dir;
  const databaseUrl = process.env.DATABASE_URL;
  const [server, chromium, standby] = await Promise.allSettled([
    e2e || !databaseUrl ? EmbeddedPostgres.start(join(dir, 'embedded')) : undefined,
    e2e ? (process.env.CHROMIUM_PATH ?? packagedBrowser()) : undefined,
    e2e && databaseUrl ? Standby.create(databaseUrl, join(dir, 'standby')) : undefined,
  ]);
  if (server.status === 'fulfilled') globalState.crcsEmbeddedServer = server.value;
  if (standby.status === 'fulfilled') globalState.crcsStandby = standby.value;
  const failed = [server, chromium, standby].flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failed.length === 0) {
    if (server.status === 'fulfilled' && server.value) process.env.CRCS_EMBEDDED_URL = server.value.url;
    try {
      await makeTemplates([process.env.CRCS_EMBEDDED_URL, databaseUrl]);
    } catch (error) {
      failed.push(error);
    }
  }
  if (failed.length > 0) {
    // Jest runs no teardown after a failed set-up (an interrupted initdb fails it before a signal
    // handler can run): what did start must not be left running, nor the folder.
    await globalTeardown();
    throw failed[0];
  }
  if (standby.status === 'fulfilled' && standby.value) {
    Object.assign(process.env, {
      CRCS_STANDBY_DIR: standby.value.dir,
      CRCS_STANDBY_PORT: String(standby.value.port),
      CRCS_STANDBY_BINDIR: standby.value.bindir,
    });
  }
  if (chromium.status === 'fulfilled' && chromium.value) process.env.CRCS_CHROMIUM = chromium.value;
}

/** The same migrated database on each of the run's servers, under one name, for test databases to be cloned from. */
async function makeTemplates(servers: (string | undefined)[]): Promise<void> {
  const name = `crcs_template_${randomBytes(6).toString('hex')}`;
  for (const server of servers) {
    if (!server) continue;
    await adminQuery(server, `create database ${name}`);
    globalState.crcsTemplates = [...(globalState.crcsTemplates ?? []), { server, name }];
    const db = new PgDatabase(withDatabase(server, name));
    try {
      await migrate(db);
    } finally {
      // `create database … template` refuses a template anyone is connected to.
      await db.close();
    }
  }
  process.env[TEMPLATE_ENV] = name;
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
