import { Client } from 'pg';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { WhoAmIController, call, issueKey, onboardMerchant, revokeKey } from '../support/auth';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { checkpointOf, holdProjectors } from '../support/read-models';
import { waitFor } from '../support/wait';

/**
 * `rm_api_keys` follows the log after the append, and the guard keeps its promises: a key issued a
 * moment ago is accepted at once, a revoked key refused at once, on every service process, however
 * far the read model is behind. Two apps share one database, each with its own key cache, listener
 * and runner. The api-keys projector is held back as another process's runner would hold it: a
 * transaction of the test holds its checkpoint row, which a runner locks before it applies a batch.
 */
describe('API keys while their read model follows the log', () => {
  let first: TestApp;
  let second: TestApp;
  let db: Database;
  let merchantId: string;

  beforeAll(async () => {
    first = await startTestApp({ controllers: [WhoAmIController] });
    second = await startTestApp({ controllers: [WhoAmIController], env: { DATABASE_URL: first.config.databaseUrl! } });
    db = first.app.get(DATABASE);
    merchantId = (await onboardMerchant(first)).merchant_id;
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const checkpoint = () => checkpointOf(db, 'api-keys');
  const head = async () =>
    Number((await db.query<{ position: string }>('select position from event_store_head where id'))[0].position);
  const whoami = async (app: TestApp, key: string) => (await call(app, 'GET', '/test-only/whoami', { key })).status;
  const issueMerchantKey = () => issueKey(first, { role: 'merchant', merchant_id: merchantId });

  it('accepts a key issued a moment ago and refuses a revoked one at once, on both processes, with the projector held', async () => {
    // In the read model before the hold, and in both caches.
    const older = await issueMerchantKey();
    await waitFor('the older key in rm_api_keys', async () => (await checkpoint()) >= (await head()));
    expect([await whoami(first, older.key), await whoami(second, older.key)]).toEqual([200, 200]);

    // What every process's listener hears: the revocations, announced while the projector is held.
    const listener = new Client({ connectionString: first.config.databaseUrl! });
    await listener.connect();
    const announced: string[] = [];
    listener.on('notification', ({ channel, payload }) => channel === 'api_key_revoked' && announced.push(payload!));
    await listener.query('listen api_key_revoked');
    const release = await holdProjectors(db, 'api-keys');
    try {
      const fresh = await issueMerchantKey();
      const held = await checkpoint();
      expect(held).toBeLessThan(await head());
      expect([await whoami(first, fresh.key), await whoami(second, fresh.key)]).toEqual([200, 200]);

      // Revoked through the other process: announced by the revocation's own append, not by the projector.
      for (const key of [older, fresh]) {
        const revoked = await revokeKey(second, key.api_key.id);
        expect(revoked.status).toBe(200);
        expect(revoked.body.api_key.revoked_at).not.toBeNull();
        expect([await whoami(first, key.key), await whoami(second, key.key)]).toEqual([401, 401]);
      }
      // Still refused on a look-up, not only by a cache that dropped it: the read model says otherwise.
      const [row] = await db.query<{ revoked_at: Date | null }>('select revoked_at from rm_api_keys where id = $1', [
        older.api_key.id,
      ]);
      expect(row.revoked_at).toBeNull();
      expect([await whoami(first, older.key), await whoami(second, older.key)]).toEqual([401, 401]);

      await waitFor('both revocations announced', () => announced.length === 2);
      expect(announced).toEqual([older.api_key.id, fresh.api_key.id]);
      expect(await checkpoint()).toBe(held);
      const { projections } = (await call(first, 'GET', '/health')).body;
      const keys = projections.find((p: { name: string }) => p.name === 'api-keys');
      expect(keys).toMatchObject({ position: held });
      expect(keys.lag_entries).toBeGreaterThanOrEqual(3);
      expect(keys.lag_ms).toBeGreaterThan(0);
    } finally {
      await release();
      await listener.end();
    }
  });

  it('refuses a key issued and revoked while held, and the read model then holds each key once, as the log does', async () => {
    const release = await holdProjectors(db, 'api-keys');
    let keys: Awaited<ReturnType<typeof issueMerchantKey>>[];
    try {
      keys = [await issueMerchantKey(), await issueMerchantKey(), await issueMerchantKey()];
      expect((await revokeKey(first, keys[0].api_key.id)).status).toBe(200);
      expect((await revokeKey(second, keys[2].api_key.id)).status).toBe(200);
      expect(await Promise.all(keys.map((key) => whoami(second, key.key)))).toEqual([401, 200, 401]);
      expect(await Promise.all(keys.map((key) => whoami(first, key.key)))).toEqual([401, 200, 401]);
      const listed = await call(first, 'GET', '/admin/api-keys?limit=100', { key: TEST_ADMIN_KEY });
      const ids = keys.map((key) => key.api_key.id);
      expect(
        listed.body.api_keys
          .filter((key: { id: string }) => ids.includes(key.id))
          .map((key: { id: string; revoked_at: string | null }) => [key.id, key.revoked_at !== null]),
      ).toEqual([
        [ids[0], true],
        [ids[1], false],
        [ids[2], true],
      ]);
    } finally {
      await release();
    }
    await waitFor('the api-keys read model at the head', async () => (await checkpoint()) >= (await head()));
    const rows = await db.query<{ id: string; revoked: boolean }>(
      'select id, revoked_at is not null as revoked from rm_api_keys where id = any($1) order by created_at, id',
      [keys.map((key) => key.api_key.id)],
    );
    expect(rows).toEqual([
      { id: keys[0].api_key.id, revoked: true },
      { id: keys[1].api_key.id, revoked: false },
      { id: keys[2].api_key.id, revoked: true },
    ]);
    expect(await Promise.all(keys.map((key) => whoami(second, key.key)))).toEqual([401, 200, 401]);
  });
});
