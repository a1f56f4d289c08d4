import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { inspectLog, loadUntil, onboard, serviceEnv } from './support';

const LOAD_MS = 4000;

/**
 * Two service processes appending to one PostgreSQL at once: the head-row lock must serialize
 * them into one unbroken chain, with every acknowledged sale in it exactly once.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('two service processes on one PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });

  afterAll(() => database?.drop());

  it('keep one unbroken chain under concurrent load, with no duplicate ids', async () => {
    const env = serviceEnv({ DATABASE_URL: database.url! });
    const services = await Promise.all([ServiceProcess.start({ env }), ServiceProcess.start({ env })]);
    let load;
    try {
      const merchant = await onboard(services[0]);
      load = await loadUntil(services, merchant, 16, sleep(LOAD_MS));
    } finally {
      for (const service of services) await service.stop();
    }

    const log = await inspectLog({ databaseUrl: database.url });
    console.log(
      `two processes: ${load.sent} requests sent, ${load.created.length} acknowledged, ${log.verification.total_count} entries verified, ` +
        `${log.verification.break_count} breaks`,
    );
    expect(load.statuses).toEqual(new Map([[201, load.sent]]));
    expect(new Set(load.created).size).toBe(load.created.length);
    expect([...log.transactionIds].sort()).toEqual([...load.created].sort());
    expect(log.verification.break_count).toBe(0);
    expect(log.verification.verified_count).toBe(log.verification.total_count);
    expect(log.rebuilt).toEqual(log.live);
  }, 90_000);
});
