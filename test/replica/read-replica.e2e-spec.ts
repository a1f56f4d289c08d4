import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { READ_REPLICA_EXTENSION } from '../../src/platform/read-replica/api-data-as-of.decorator';
import { checkpointsWritten } from '../support/audit';
import { call, issueKey, onboardMerchant, revokeKey, type Answer } from '../support/auth';
import { conformanceOf } from '../support/openapi';
import { recordSale } from '../support/sales';
import { Standby } from '../support/standby';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/** Long enough for a loaded machine to do a step's requests while replay is paused; the suite waits it out once per test that passes it. */
const MAX_LAG_MS = 15_000;

const standby = Standby.ofRun();

/**
 * Against a real streaming standby of the DATABASE_URL server (the global set-up makes it with
 * pg_basebackup -R): which answers it serves, how they say so, and when the primary takes over.
 * Replay is paused on the standby itself, so what an answer shows tells where it was read.
 */
(standby ? describe : describe.skip)('analytics and exports on a read replica', () => {
  let database: TestDatabase;
  let primary: Client;
  let app: TestApp;
  let witnessDir: string;
  let merchantId: string;
  let merchantKey: { key: string; id: string };
  let auditorKey: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    primary = new Client({ connectionString: database.url });
    await primary.connect();
    witnessDir = await mkdtemp(join(tmpdir(), 'crcs-replica-'));
    const name = new URL(database.url).pathname.slice(1);
    app = await startTestApp({
      // No embedded server and no database of its own: DATABASE_URL is the test's.
      driver: 'embedded',
      env: {
        DATABASE_URL: database.url,
        READ_DATABASE_URL: standby!.url(name),
        READ_MAX_LAG_MS: String(MAX_LAG_MS),
        CHECKPOINT_SIGNING_KEY: newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string,
        CHECKPOINT_INTERVAL: '4',
        // Checkpoints by count only: one signed by age (5 s by default) while a test waits out READ_MAX_LAG_MS would
        // move the primary's head past the position the test measured and compares the primary's answers with.
        CHECKPOINT_MAX_AGE_S: '3600',
        CHECKPOINT_WITNESS_FILE: join(witnessDir, 'witness.ndjson'),
      },
    });
    merchantId = (await onboardMerchant(app)).merchant_id;
    const issued = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    merchantKey = { key: issued.key, id: issued.api_key.id };
    auditorKey = (await issueKey(app, { role: 'auditor' })).key;
    const sale = await recordSale(app, merchantKey.key, merchantId);
    await voidSale(sale.id);
  });

  afterEach(async () => {
    // A failed test must not leave replay paused for the next one.
    await standby!.replay('resume');
  });

  afterAll(async () => {
    await app?.close();
    await primary?.end();
    await database?.drop();
    await rm(witnessDir, { recursive: true, force: true });
  });

  const voidSale = async (id: string) => {
    const answer = await call(app, 'POST', '/transaction/void', {
      key: merchantKey.key,
      body: { original_transaction_id: id, void_reason: 'pricing_error', voided_by: 'e-2' },
    });
    expect(answer.status).toBe(201);
    return answer.body.transaction;
  };
  const voids = (key = TEST_ADMIN_KEY) => call(app, 'GET', `/analytics/voids?merchant_id=${merchantId}`, { key });
  const health = async () => (await call(app, 'GET', '/health')).body;
  const dataAsOf = (answer: Answer) => answer.headers.get('x-data-as-of');

  /** Until the primary's read models, the asynchronous ones too, have taken in the whole log. */
  async function projected(): Promise<number> {
    for (;;) {
      const [{ head, behind }] = (
        await primary.query<{ head: string; behind: string | null }>(
          'select h.position as head, (select min(position) from projection_checkpoints) as behind from event_store_head h where h.id',
        )
      ).rows;
      if (Number(behind) >= Number(head)) return Number(head);
      await sleep(50);
    }
  }

  const replayed = () => standby!.replayed();

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let value = await read(); ; value = await read()) {
      if (done(value)) return value;
      await sleep(100);
    }
  }

  /** Every route the document marks as possibly read from the replica, as a test calls it. */
  const replicaRoutes = (): Array<[string, string, () => Promise<Answer>]> => [
    ['GET', '/analytics/voids', () => voids()],
    ['GET', '/analytics/void-abuse', () => call(app, 'GET', '/analytics/void-abuse', { key: auditorKey })],
    ['GET', '/overrides/report', () => call(app, 'GET', '/overrides/report', { key: auditorKey })],
    ['GET', '/admin/fraud-overview', () => call(app, 'GET', '/admin/fraud-overview', { key: TEST_ADMIN_KEY })],
    [
      'GET',
      '/merchant/{merchant_id}/risk-profile',
      () => call(app, 'GET', `/merchant/${merchantId}/risk-profile`, { key: TEST_ADMIN_KEY }),
    ],
    [
      'GET',
      '/analytics/tips',
      () => call(app, 'GET', `/analytics/tips?merchant_id=${merchantId}`, { key: auditorKey }),
    ],
    [
      'GET',
      '/analytics/tip-wage-theft',
      () => call(app, 'GET', `/analytics/tip-wage-theft?merchant_id=${merchantId}`, { key: auditorKey }),
    ],
    ['POST', '/export', () => call(app, 'POST', '/export', { key: merchantKey.key, body: {} })],
    ['GET', '/admin/audit-logs', () => call(app, 'GET', '/admin/audit-logs', { key: auditorKey })],
    ['GET', '/admin/verify-hash-chain', () => call(app, 'GET', '/admin/verify-hash-chain', { key: auditorKey })],
    ['GET', '/admin/verify-transactions', () => call(app, 'GET', '/admin/verify-transactions', { key: auditorKey })],
  ];

  it('serves the analytics, export, audit-log and verification queries from the replica, saying so, and nothing else', async () => {
    await projected();
    await replayed();
    const document = (await conformanceOf(app.baseUrl)).document;
    const marked = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Record<string, unknown>>).flatMap(([method, operation]) =>
        operation[READ_REPLICA_EXTENSION] ? [`${method.toUpperCase()} ${path}`] : [],
      ),
    );
    expect(
      replicaRoutes()
        .map(([method, path]) => `${method} ${path}`)
        .sort(),
    ).toEqual(marked.sort());

    for (const [method, path, send] of replicaRoutes()) {
      const answer = await send();
      expect({ route: `${method} ${path}`, status: answer.status }).toEqual({
        route: `${method} ${path}`,
        status: 200,
      });
      expect({ route: `${method} ${path}`, asOf: Number.isNaN(Date.parse(dataAsOf(answer) ?? '')) }).toEqual({
        route: `${method} ${path}`,
        asOf: false,
      });
    }
    // Commands, key and merchant look-ups, the transaction list and jurisdiction reads stay on the primary.
    const sale = await recordSale(app, merchantKey.key, merchantId);
    expect(sale.chain_position).toBeGreaterThan(0);
    for (const [path, key] of [
      [`/transaction/${sale.id}`, merchantKey.key],
      [`/transactions?merchant_id=${merchantId}`, merchantKey.key],
      ['/admin/api-keys', TEST_ADMIN_KEY],
      ['/admin/merchants', TEST_ADMIN_KEY],
      ['/jurisdictions', TEST_ADMIN_KEY],
      ['/health', TEST_ADMIN_KEY],
    ]) {
      const answer = await call(app, 'GET', path, { key });
      expect({ path, status: answer.status, asOf: dataAsOf(answer) }).toEqual({ path, status: 200, asOf: null });
    }
    expect((await health()).read_replica).toEqual({
      state: 'serving',
      lag_ms: expect.any(Number),
      data_as_of: expect.any(String),
      max_lag_ms: MAX_LAG_MS,
    });
  });

  it('with replay paused, answers from the replica lag the primary and say so; past READ_MAX_LAG_MS the primary serves the same request', async () => {
    await projected();
    await replayed();
    const before = await voids();
    expect(dataAsOf(before)).not.toBeNull();

    await standby!.replay('pause');
    const voided = await voidSale((await recordSale(app, merchantKey.key, merchantId)).id);
    // Enough appends for a signed checkpoint past the replica's log: its witnessed head is not yet there.
    for (let i = 0; i < 4; i++) await recordSale(app, merchantKey.key, merchantId);
    await checkpointsWritten(app);
    const head = await projected();

    const lagging = await voids();
    expect(lagging.status).toBe(200);
    const asOf = Date.parse(dataAsOf(lagging)!);
    expect(asOf).toBeLessThan(Date.parse(voided.created_at));
    expect(lagging.body.as_of_position).toBe(before.body.as_of_position);
    expect(lagging.body.as_of_position).toBeLessThan(voided.chain_position);
    expect(lagging.body.totals.voids).toBe(before.body.totals.voids);
    const lagged = (await health()).read_replica;
    expect(lagged).toMatchObject({ state: 'serving', data_as_of: new Date(asOf).toISOString() });
    expect(lagged.lag_ms).toBeLessThanOrEqual(MAX_LAG_MS);

    // Verified on the replica, the log ends before the newest witnessed head, which is no cut: the primary has its entries.
    const verified = await call(app, 'GET', '/admin/verify-hash-chain', { key: auditorKey });
    expect(dataAsOf(verified)).not.toBeNull();
    expect(verified.body.to_position).toBeLessThan(head);
    expect(verified.body).toMatchObject({ break_count: 0, breaks: [] });

    await until(health, (report) => report.read_replica.state === 'lagging');
    const fromPrimary = await voids();
    expect(fromPrimary.status).toBe(200);
    expect(dataAsOf(fromPrimary)).toBeNull();
    expect(fromPrimary.body.as_of_position).toBe(head);
    expect(fromPrimary.body.totals.voids).toBe(before.body.totals.voids + 1);
    expect((await health()).read_replica).toEqual({
      state: 'lagging',
      lag_ms: expect.any(Number),
      data_as_of: expect.any(String),
      max_lag_ms: MAX_LAG_MS,
    });
    expect((await health()).read_replica.lag_ms).toBeGreaterThan(MAX_LAG_MS);

    await standby!.replay('resume');
    await replayed();
    const caughtUp = await voids();
    expect(dataAsOf(caughtUp)).not.toBeNull();
    expect(caughtUp.body.totals.voids).toBe(before.body.totals.voids + 1);
  }, 120_000);

  it('refuses a revoked key at once while the replica, which still holds it as live, serves the others', async () => {
    await projected();
    await replayed();
    const exported = await call(app, 'POST', '/export', { key: merchantKey.key, body: {} });
    expect(exported.status).toBe(200);
    expect(dataAsOf(exported)).not.toBeNull();

    await standby!.replay('pause');
    expect((await revokeKey(app, merchantKey.id)).status).toBe(200);
    const refused = await call(app, 'POST', '/export', { key: merchantKey.key, body: {} });
    expect(refused.status).toBe(401);
    const onReplica = await call(app, 'POST', '/export', { key: auditorKey, body: { merchant_id: merchantId } });
    expect(onReplica.status).toBe(200);
    expect(dataAsOf(onReplica)).not.toBeNull();
    // The file is named after the moment its data is from, as the file names write an instant.
    expect(onReplica.headers.get('content-disposition')).toContain(
      `-${dataAsOf(onReplica)!.replace(/:|\.000/g, '')}.csv"`,
    );
    const onStandby = new Client({ connectionString: standby!.url(new URL(database.url).pathname.slice(1)) });
    await onStandby.connect();
    try {
      const { rows } = await onStandby.query<{ revoked_at: Date | null }>(
        'select revoked_at from rm_api_keys where id = $1',
        [merchantKey.id],
      );
      expect(rows).toEqual([{ revoked_at: null }]);
    } finally {
      await onStandby.end();
    }
    // Another merchant key for the tests after this one.
    const issued = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    merchantKey = { key: issued.key, id: issued.api_key.id };
  });

  it('with the standby stopped, reads go to the primary and /health says so; once back, to the replica again', async () => {
    await projected();
    standby!.stop();
    try {
      const report = await call(app, 'GET', '/health');
      expect(report.status).toBe(200);
      expect(report.body.status).toBe('ok');
      expect(report.body.read_replica).toEqual({
        state: 'unreachable',
        lag_ms: null,
        data_as_of: null,
        max_lag_ms: MAX_LAG_MS,
      });
      for (const [method, path, send] of replicaRoutes()) {
        const answer = await send();
        expect({ route: `${method} ${path}`, status: answer.status, asOf: dataAsOf(answer) }).toEqual({
          route: `${method} ${path}`,
          status: 200,
          asOf: null,
        });
      }
    } finally {
      standby!.start();
    }
    await replayed();
    await until(health, (report) => report.read_replica.state === 'serving');
    expect(dataAsOf(await voids())).not.toBeNull();
  }, 120_000);
});
