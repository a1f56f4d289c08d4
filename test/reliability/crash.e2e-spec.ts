import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceProcess } from '../support/service-process';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../support/test-database';
import { inspectLog, loadUntil, onboard, serviceEnv } from './support';

const CRASHES = 3;
const LOAD_MS = 1500;

/**
 * kill -9 under load, then restart on the same database, three times over: every sale that was
 * answered 201 must be in the log, the chain must verify, and rebuilding the read models from
 * the log must give what the crashed processes had built live.
 */
describe.each(DRIVERS)('crash under load on %s', (driver) => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crcs-crash-'));
    database = driver === 'postgres' ? await createTestDatabase('postgres') : undefined;
    env = serviceEnv(database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`loses no acknowledged sale over ${CRASHES} kill -9s, and the log stays whole`, async () => {
    let service = await ServiceProcess.start({ env });
    const merchant = await onboard(service);
    const acknowledged: string[] = [];
    let sent = 0;
    for (let crash = 1; crash <= CRASHES; crash++) {
      const killed = sleep(LOAD_MS).then(() => service.kill());
      const load = await loadUntil([service], merchant, 8, killed);
      acknowledged.push(...load.created);
      sent += load.sent;
      // Some requests must have been in flight or refused when the process died, else nothing was tested.
      expect(load.created.length).toBeGreaterThan(0);
      expect(load.statuses.get(0)).toBeGreaterThan(0);
      service = await ServiceProcess.start({ env, port: service.port });
    }
    const after = await service.stop();
    expect(after).toBe(0);

    const log = await inspectLog({ databaseUrl: database?.url, dataDir });
    const lost = acknowledged.filter((id) => !log.transactionIds.has(id));
    console.log(
      `crash on ${driver}: ${sent} requests sent, ${acknowledged.length} acknowledged, ${CRASHES} kill -9s, ${lost.length} lost, ${log.verification.total_count} entries verified`,
    );
    expect(lost).toEqual([]);
    expect(log.verification.break_count).toBe(0);
    expect(log.verification.verified_count).toBe(log.verification.total_count);
    expect(log.rebuilt).toEqual(log.live);
  }, 240_000);
});
