import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SERVER_HOME } from '../../src/platform/event-store/embedded-postgres';
import { ServiceProcess } from '../support/service-process';
import { embeddedServerPid, isRunning, onboard, recordSale, serviceEnv } from './support';

const INITIALISED = /initialised the embedded database/g;
/** Starts on a loaded 2-core machine took up to a minute; each test allows for four of them. */
const STARTUP_LIMIT_MS = 90_000;

/**
 * The embedded default's own failure modes, with real processes: the service started as `npm start`
 * starts it (no DATABASE_URL), its PostgreSQL server under DATA_DIR.
 */
describe('the embedded database', () => {
  let dataDir: string;
  let env: Record<string, string>;
  const start = () => ServiceProcess.start({ env, startupLimitMs: STARTUP_LIMIT_MS });

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crcs-embedded-'));
    env = serviceEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  });

  afterEach(async () => {
    const pid = embeddedServerPid(dataDir);
    if (pid && isRunning(pid)) process.kill(pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is initialised on the first start, logged once, and kept by the next start', async () => {
    const first = await start();
    const merchant = await onboard(first);
    expect(await first.stop()).toBe(0);
    const second = await start();
    await recordSale(second, merchant);
    expect(await second.stop()).toBe(0);
    expect(first.output.match(INITIALISED)).toHaveLength(1);
    expect(second.output.match(INITIALISED)).toBeNull();
  }, 240_000);

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops with the service on %s',
    async (signal) => {
      const service = await start();
      const server = embeddedServerPid(dataDir)!;
      expect(isRunning(server)).toBe(true);
      const exit = service.exited();
      service.child.kill(signal);
      expect(await exit).toBe(0);
      expect(isRunning(server)).toBe(false);
      expect(embeddedServerPid(dataDir)).toBeUndefined();
    },
    240_000,
  );

  it('is adopted after a kill -9 of the service left it running, with nothing lost', async () => {
    const crashed = await start();
    const merchant = await onboard(crashed);
    const sale = await recordSale(crashed, merchant);
    const orphan = embeddedServerPid(dataDir)!;
    await crashed.kill();
    expect(isRunning(orphan)).toBe(true);

    const next = await start();
    expect(embeddedServerPid(dataDir)).toBe(orphan);
    const found = await fetch(`${next.baseUrl}/transaction/${sale}`, { headers: { 'x-api-key': merchant.key } });
    expect(found.status).toBe(200);
    await recordSale(next, merchant);
    expect(await next.stop()).toBe(0);
    expect(isRunning(orphan)).toBe(false);
  }, 240_000);

  it('starts over a stale postmaster.pid whose pid now belongs to another program', async () => {
    const crashed = await start();
    const merchant = await onboard(crashed);
    const server = embeddedServerPid(dataDir)!;
    await crashed.kill();
    process.kill(server, 'SIGKILL');
    while (isRunning(server)) await new Promise((resolve) => setTimeout(resolve, 20));
    // PostgreSQL alone would refuse this file: the pid in it is alive (this test's own process).
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
    writeFileSync(pidFile, `${process.pid}\n`);

    const next = await start();
    await recordSale(next, merchant);
    expect(next.output).toContain(`removing the stale ${pidFile}`);
    expect(await next.stop()).toBe(0);
  }, 240_000);

  (process.getuid?.() === 0 ? it : it.skip)(
    'serves as root from a data folder inside a 0700 folder, with its cluster where the postgres user can reach it',
    async () => {
      // As /root is: nobody but root may enter.
      await rm(dataDir, { recursive: true });
      dataDir = join(await mkdtemp(`${dataDir}-`), 'data');
      expect(statSync(dirname(dataDir)).mode & 0o777).toBe(0o700);
      env = serviceEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      const service = await start();
      const cluster = readlinkSync(join(dataDir, 'postgres'));
      try {
        expect(dirname(dirname(cluster))).toBe(join(SERVER_HOME, 'clusters'));
        expect(readFileSync(join(dirname(cluster), 'data-folder'), 'utf8')).toBe(`${dataDir}\n`);
        expect(service.output).toContain(
          `the OS user postgres cannot reach ${dataDir}: its cluster is ${cluster}, linked from ${dataDir}/postgres`,
        );
        await recordSale(service, await onboard(service));
        // The server runs as postgres, from root's copy of the binaries: no one but root may write
        // the binary or any folder on the way to it.
        const server = embeddedServerPid(dataDir)!;
        expect(readFileSync(`/proc/${server}/status`, 'utf8')).toMatch(
          new RegExp(`^Uid:\\s+${spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()}\\s`, 'm'),
        );
        const exe = readlinkSync(`/proc/${server}/exe`);
        expect(exe.startsWith(`${SERVER_HOME}/postgres-`)).toBe(true);
        for (let path = exe; path !== '/'; path = dirname(path)) {
          const stats = lstatSync(path);
          expect({ path, uid: stats.uid, othersWrite: (stats.mode & 0o022) !== 0 }).toEqual({
            path,
            uid: 0,
            othersWrite: false,
          });
        }
        expect(await service.stop()).toBe(0);
        expect(embeddedServerPid(dataDir)).toBeUndefined();
      } finally {
        await rm(dirname(dataDir), { recursive: true, force: true });
        await rm(dirname(cluster), { recursive: true, force: true });
      }
    },
    240_000,
  );
});
