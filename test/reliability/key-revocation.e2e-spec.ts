import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { LISTENER_NAME_PREFIX } from '../../src/auth/api-key-revocation-feed';
import { ServiceProcess } from '../support/service-process';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import { ADMIN_KEY, post, serviceEnv } from './support';
import { WAIT_LIMIT_MS, waitFor } from '../support/wait';

const ROUNDS = 20;

/**
 * Two service processes on one database, each caching the keys it has seen: a key revoked through
 * one is refused by the other on the very next request, however busy that one is with the key, and
 * a listening connection cut from the database side costs the cache, never a revocation. On the
 * embedded driver the two processes share a database on the embedded server, by URL: its data
 * folder has one owner.
 */
describe.each(DRIVERS)('a revoked key on two service processes sharing one database (%s server)', (driver) => {
  let database: TestDatabase;
  let pool: Pool;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let merchantId: string;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    pool = new Pool({ connectionString: database.url, max: 2 });
    const env = serviceEnv({ DATABASE_URL: database.url });
    // Two starts at once on a shared machine can take a while.
    [a, b] = await Promise.all([ServiceProcess.start({ env }), ServiceProcess.start({ env })]);
    merchantId = `m-keys-${driver}`;
    const merchant = await post(a.baseUrl, ADMIN_KEY, '/admin/merchants', {
      merchant_id: merchantId,
      name: 'Keys',
      environment: 'sandbox',
    });
    expect(merchant.status).toBe(201);
    await Promise.all([listenerOf(a), listenerOf(b)]);
  }, 180_000);

  afterAll(async () => {
    // A clean exit: the listening connection closes with the rest.
    const exits = [await a?.stop(), await b?.stop()];
    await pool?.end();
    await database?.drop();
    expect(exits).toEqual([0, 0]);
  });

  /** The backend pid of the service's listening connection once there is one (other than `not`). */
  async function listenerOf(service: ServiceProcess, not?: number): Promise<number> {
    for (const deadline = Date.now() + WAIT_LIMIT_MS; Date.now() < deadline; await sleep(50)) {
      const { rows } = await pool.query<{ pid: number }>(
        'select pid from pg_stat_activity where application_name = $1',
        [`${LISTENER_NAME_PREFIX}${service.child.pid}`],
      );
      if (rows.length > 0 && rows[0].pid !== not) return rows[0].pid;
    }
    throw new Error(`no listener for service pid ${service.child.pid}`);
  }

  async function issueKey(): Promise<{ id: string; key: string }> {
    const answer = await post(a.baseUrl, ADMIN_KEY, '/admin/api-keys', { role: 'merchant', merchant_id: merchantId });
    expect(answer.status).toBe(201);
    return { id: answer.body.api_key.id, key: answer.body.key };
  }

  async function revoke(service: ServiceProcess, id: string): Promise<number> {
    const started = Date.now();
    const answer = await fetch(`${service.baseUrl}/admin/api-keys/${id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': ADMIN_KEY },
    });
    expect(answer.status).toBe(200);
    await answer.text();
    return Date.now() - started;
  }

  const listTransactions = async (service: ServiceProcess, key: string) =>
    (await fetch(`${service.baseUrl}/transactions?limit=1`, { headers: { 'x-api-key': key } })).status;

  const sale = async (service: ServiceProcess, key: string) =>
    (
      await post(service.baseUrl, key, '/transaction', {
        merchant_id: merchantId,
        subtotal_cents: 1000,
        tax_total_cents: 3,
        payment_method: 'cash',
        zip_code: '85004',
        cashier_id: 'c-1',
      })
    ).status;

  /** Behind the log's back, so no notification: what only a process that did not cache the key sees. */
  const revokeInTableOnly = (id: string) =>
    // The key's row is written after the append: wait for it, so the update has a row to change.
    waitFor(`key ${id} revoked in rm_api_keys`, async () => {
      const { rowCount } = await pool.query('update rm_api_keys set revoked_at = now() where id = $1', [id]);
      return rowCount === 1;
    });

  it('B answers a key it has seen from its cache: a revocation written in the table alone goes unseen there, not on A', async () => {
    const { id, key } = await issueKey();
    expect(await sale(b, key)).toBe(201);
    expect(await sale(b, key)).toBe(201);
    await revokeInTableOnly(id);
    expect(await sale(b, key)).toBe(201);
    expect(await sale(a, key)).toBe(401);
  });

  it(`a key revoked through A is refused by B on the very next request, with B busy on the key (${ROUNDS} rounds)`, async () => {
    const lastSeen: number[] = [];
    const revokeMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { id, key } = await issueKey();
      const [revoker, other] = round % 2 === 0 ? [a, b] : [b, a];
      expect(await listTransactions(other, key)).toBe(200);
      // Requests on the other process, back to back, while the revocation is under way: those sent
      // before its answer may pass either way; every one sent after it must be refused.
      let answered = false;
      const after: number[] = [];
      let before = 0;
      const hammer = (async () => {
        while (after.length < 5) {
          const sentAfter = answered;
          const status = await listTransactions(other, key);
          if (sentAfter) after.push(status);
          else if (status === 200) before += 1;
        }
      })();
      await sleep(round % 5);
      revokeMs.push(await revoke(revoker, id));
      answered = true;
      const next = await listTransactions(other, key);
      await hammer;
      expect({ round, next, after }).toEqual({ round, next: 401, after: [401, 401, 401, 401, 401] });
      lastSeen.push(before);
    }
    console.log(
      `${driver}: ${ROUNDS} revocations, each refused by the other process on its next request; ` +
        `requests that still passed while a revocation was under way: ${lastSeen.join(' ')}; revocation answered in ms: ${revokeMs.join(' ')}`,
    );
  }, 120_000);

  it('B’s listening connection terminated from the database side: B refuses a key revoked meanwhile, then caches again', async () => {
    // Revoked through A while B's listener is down or coming back.
    const first = await issueKey();
    expect(await sale(b, first.key)).toBe(201);
    const cut = await listenerOf(b);
    await pool.query('select pg_terminate_backend($1)', [cut]);
    const revokeMs = await revoke(a, first.id);
    expect(await sale(b, first.key)).toBe(401);

    // Listening again, B caches again...
    const back = await listenerOf(b, cut);
    const second = await issueKey();
    // Twice: the first look-up may have begun before B heard its LISTEN was back.
    expect(await sale(b, second.key)).toBe(201);
    expect(await sale(b, second.key)).toBe(201);
    await revokeInTableOnly(second.id);
    expect(await sale(b, second.key)).toBe(201);
    // ...and a loss empties that cache: the revocation nobody announced is now seen.
    await pool.query('select pg_terminate_backend($1)', [back]);
    await listenerOf(b, back);
    expect(await sale(b, second.key)).toBe(401);
    console.log(
      `${driver}: listener ${cut} cut, revocation through A answered in ${revokeMs} ms and refused by B; listening again as ${back}`,
    );
  }, 60_000);
});
