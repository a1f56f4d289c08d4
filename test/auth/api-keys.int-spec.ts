import { createHash } from 'node:crypto';
import { ApiKeyDirectory } from '../../src/auth/api-key-directory';
import { EventStore, type StoredEvent } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { WhoAmIController, call, issueKey, onboardMerchant, revokeKey, uniqueId } from '../support/auth';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { readModelsCaughtUp } from '../support/read-models';
import { DRIVERS } from '../support/test-database';

const sha256 = (raw: string) => createHash('sha256').update(raw).digest('hex');

describe.each(DRIVERS)('keys and merchants on %s', (driver) => {
  let testApp: TestApp;
  const stream = (id: string): Promise<StoredEvent[]> => testApp.app.get(EventStore).readStream(id);
  const whoami = (key?: string) => call(testApp, 'GET', '/test-only/whoami', { key });

  beforeAll(async () => {
    testApp = await startTestApp({ driver, controllers: [WhoAmIController] });
  });

  afterAll(() => testApp?.close());

  describe('POST /admin/merchants', () => {
    it('onboards a merchant as an event with full metadata', async () => {
      const merchantId = uniqueId('m');
      const answer = await call(testApp, 'POST', '/admin/merchants', {
        key: TEST_ADMIN_KEY,
        body: { merchant_id: merchantId, name: 'Corner Deli', environment: 'production' },
        headers: { 'x-request-id': 'req-onboard-1' },
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        merchant: {
          merchant_id: merchantId,
          name: 'Corner Deli',
          environment: 'production',
          partner_id: null,
          onboarded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      });
      const [event, ...more] = await stream(`merchant-${merchantId}`);
      expect(more).toEqual([]);
      expect(event.type).toBe('MerchantOnboarded');
      expect(event.data).toEqual({
        merchantId,
        name: 'Corner Deli',
        environment: 'production',
        partnerId: null,
        onboardedAt: answer.body.merchant.onboarded_at,
      });
      expect(event.metadata).toEqual({
        schemaVersion: 1,
        correlationId: 'req-onboard-1',
        causationId: 'req-onboard-1',
        actor: { keyId: 'env:ADMIN_API_KEY', role: 'admin' },
        merchantId,
      });
    });

    it('refuses a merchant id that is taken with 409, and records nothing', async () => {
      const merchant = await onboardMerchant(testApp);
      const again = await call(testApp, 'POST', '/admin/merchants', {
        key: TEST_ADMIN_KEY,
        body: { merchant_id: merchant.merchant_id, name: 'Other', environment: 'sandbox' },
      });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        error: 'MERCHANT_ALREADY_EXISTS',
        message: `Merchant ${merchant.merchant_id} already exists`,
      });
      expect(await stream(`merchant-${merchant.merchant_id}`)).toHaveLength(1);
    });

    it('refuses an id that differs from an existing merchant only in case (409), and records nothing', async () => {
      const upper = uniqueId('M-CASE').toUpperCase();
      await onboardMerchant(testApp, { merchant_id: upper });
      for (const other of [upper.toLowerCase(), `m${upper.slice(1)}`]) {
        const again = await call(testApp, 'POST', '/admin/merchants', {
          key: TEST_ADMIN_KEY,
          body: { merchant_id: other, name: 'Other', environment: 'sandbox' },
        });
        expect({ status: again.status, body: again.body }).toEqual({
          status: 409,
          body: {
            error: 'MERCHANT_ALREADY_EXISTS',
            message: `Merchant ${upper} already exists; ${other} differs from it only in case`,
          },
        });
        expect(await stream(`merchant-${other}`)).toHaveLength(0);
      }
    });

    it('onboards one of two ids differing only in case sent at once', async () => {
      const id = uniqueId('m-race');
      const answers = await Promise.all(
        [id, id.toUpperCase()].map((merchantId) =>
          call(testApp, 'POST', '/admin/merchants', {
            key: TEST_ADMIN_KEY,
            body: { merchant_id: merchantId, name: 'Race', environment: 'sandbox' },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect((await stream(`merchant-${id}`)).length + (await stream(`merchant-${id.toUpperCase()}`)).length).toBe(1);
    });

    it('onboards one merchant when the same id is sent twice at once', async () => {
      const body = { merchant_id: uniqueId('m'), name: 'Twice', environment: 'sandbox' };
      const answers = await Promise.all(
        [1, 2, 3].map(() => call(testApp, 'POST', '/admin/merchants', { key: TEST_ADMIN_KEY, body })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
      expect(await stream(`merchant-${body.merchant_id}`)).toHaveLength(1);
    });

    it.each([
      ['a missing environment', { merchant_id: 'm-ok', name: 'X' }, 'environment'],
      ['an unknown environment', { merchant_id: 'm-ok', name: 'X', environment: 'staging' }, 'environment'],
      ['a merchant id with a slash', { merchant_id: 'a/b', name: 'X', environment: 'sandbox' }, 'merchant_id'],
      ['an empty name', { merchant_id: 'm-ok', name: '', environment: 'sandbox' }, 'name'],
      ['an unknown field', { merchant_id: 'm-ok', name: 'X', environment: 'sandbox', owner: 'me' }, 'owner'],
    ])('refuses %s with 400', async (_what, body, field) => {
      const { status, body: error } = await call(testApp, 'POST', '/admin/merchants', { key: TEST_ADMIN_KEY, body });
      expect(status).toBe(400);
      expect(error.error).toBe('VALIDATION_ERROR');
      expect(error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
    });
  });

  describe('GET /admin/merchants', () => {
    const listed = async (key: string, query = 'limit=1000') => {
      const { status, body } = await call(testApp, 'GET', `/admin/merchants?${query}`, { key });
      expect(status).toBe(200);
      return body.merchants.map((merchant: { merchant_id: string }) => merchant.merchant_id) as string[];
    };

    it('lists every merchant to an admin, oldest first, a page at a time', async () => {
      const onboarded = [await onboardMerchant(testApp), await onboardMerchant(testApp)];
      const ids = await listed(TEST_ADMIN_KEY);
      expect(ids).toEqual(expect.arrayContaining(onboarded.map((m) => m.merchant_id)));
      const { body } = await call(testApp, 'GET', '/admin/merchants?limit=1000', { key: TEST_ADMIN_KEY });
      expect(body.merchants.find((m: { merchant_id: string }) => m.merchant_id === onboarded[0].merchant_id)).toEqual(
        onboarded[0],
      );
      expect(await listed(TEST_ADMIN_KEY, 'limit=1&offset=1')).toEqual(ids.slice(1, 2));
    });

    it("lists to a partner the merchants it onboarded in its key's environment only", async () => {
      const partner = await issueKey(testApp, { role: 'partner', environment: 'sandbox' });
      const own = await onboardMerchant(testApp, { environment: 'sandbox' }, partner.key);
      await onboardMerchant(testApp, { environment: 'sandbox' });
      expect(await listed(partner.key)).toEqual([own.merchant_id]);
    });

    it.each([['limit=0'], ['limit=1001'], ['offset=-1']])('refuses %s with 400', async (query) => {
      expect((await call(testApp, 'GET', `/admin/merchants?${query}`, { key: TEST_ADMIN_KEY })).status).toBe(400);
    });
  });

  describe('POST /admin/api-keys', () => {
    it('issues a merchant key, shown once, in its merchant environment, recorded as its hash only', async () => {
      const merchant = await onboardMerchant(testApp, { environment: 'sandbox' });
      const answer = await call(testApp, 'POST', '/admin/api-keys', {
        key: TEST_ADMIN_KEY,
        body: { role: 'merchant', merchant_id: merchant.merchant_id, name: 'Till 3' },
      });
      expect(answer.status).toBe(201);
      const { key, api_key: apiKey } = answer.body;
      expect(key).toMatch(/^svc_[0-9A-Za-z]{32}$/);
      expect(apiKey).toEqual({
        id: expect.stringMatching(/^key_[0-9A-Za-z]{20}$/),
        role: 'merchant',
        merchant_id: merchant.merchant_id,
        partner_id: null,
        environment: 'sandbox',
        name: 'Till 3',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        revoked_at: null,
      });

      const [event] = await stream(`apiKey-${apiKey.id}`);
      expect(event.type).toBe('ApiKeyIssued');
      expect(event.data).toMatchObject({
        keyId: apiKey.id,
        keyHash: sha256(key),
        role: 'merchant',
        merchantId: merchant.merchant_id,
      });
      expect(event.metadata).toMatchObject({
        schemaVersion: 1,
        actor: { keyId: 'env:ADMIN_API_KEY', role: 'admin' },
        merchantId: merchant.merchant_id,
      });
      expect(JSON.stringify(event)).not.toContain(key);

      const me = await whoami(key);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        keyId: apiKey.id,
        role: 'merchant',
        environment: 'sandbox',
        merchantId: merchant.merchant_id,
      });
    });

    it('issues partner keys with the svc_partner_ prefix, as a partner of their own', async () => {
      const { key, api_key: apiKey } = await issueKey(testApp, { role: 'partner', environment: 'sandbox' });
      expect(key).toMatch(/^svc_partner_[0-9A-Za-z]{32}$/);
      expect(apiKey).toMatchObject({
        role: 'partner',
        partner_id: apiKey.id,
        environment: 'sandbox',
        merchant_id: null,
      });
      expect((await whoami(key)).body).toEqual({
        keyId: apiKey.id,
        role: 'partner',
        environment: 'sandbox',
        partnerId: apiKey.id,
      });
    });

    it('issues a replacement partner key that keeps the partner and its merchants', async () => {
      const first = await issueKey(testApp, { role: 'partner', environment: 'sandbox' });
      const merchant = await onboardMerchant(testApp, { environment: 'sandbox' }, first.key);
      const replacement = await issueKey(testApp, {
        role: 'partner',
        environment: 'sandbox',
        partner_id: first.api_key.partner_id!,
      });
      expect(replacement.api_key.partner_id).toBe(first.api_key.id);
      await revokeKey(testApp, first.api_key.id);
      const issued = await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id }, replacement.key);
      expect(issued.api_key.merchant_id).toBe(merchant.merchant_id);
    });

    it('refuses a partner_id that names no partner with 404', async () => {
      const { status, body } = await call(testApp, 'POST', '/admin/api-keys', {
        key: TEST_ADMIN_KEY,
        body: { role: 'partner', partner_id: 'nobody' },
      });
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'NOT_FOUND', message: 'Partner nobody not found' });
    });

    it.each([['auditor'], ['admin']] as const)('issues %s keys in production unless told otherwise', async (role) => {
      expect((await issueKey(testApp, { role })).api_key).toMatchObject({
        role,
        environment: 'production',
        merchant_id: null,
      });
      expect((await issueKey(testApp, { role, environment: 'sandbox' })).api_key.environment).toBe('sandbox');
    });

    it('refuses a merchant key for a merchant that does not exist with 404', async () => {
      const { status, body } = await call(testApp, 'POST', '/admin/api-keys', {
        key: TEST_ADMIN_KEY,
        body: { role: 'merchant', merchant_id: 'm-nowhere' },
      });
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'NOT_FOUND', message: 'Merchant m-nowhere not found' });
    });

    it.each([
      ['a merchant key without merchant_id', { role: 'merchant' }, 'merchant_id'],
      ['an auditor key with a merchant_id', { role: 'auditor', merchant_id: 'm-1' }, 'merchant_id'],
      ['an unknown role', { role: 'superuser' }, 'role'],
      ['a partner_id on an admin key', { role: 'admin', partner_id: 'p' }, 'partner_id'],
    ])('refuses %s with 400', async (_what, body, field) => {
      const { status, body: error } = await call(testApp, 'POST', '/admin/api-keys', { key: TEST_ADMIN_KEY, body });
      expect(status).toBe(400);
      expect(error.error).toBe('VALIDATION_ERROR');
      expect(error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
    });

    it('refuses a production key for a sandbox merchant with 400', async () => {
      const merchant = await onboardMerchant(testApp, { environment: 'sandbox' });
      const { status, body } = await call(testApp, 'POST', '/admin/api-keys', {
        key: TEST_ADMIN_KEY,
        body: { role: 'merchant', merchant_id: merchant.merchant_id, environment: 'production' },
      });
      expect(status).toBe(400);
      expect(body.details[0].field).toBe('environment');
    });
  });

  describe('GET /admin/api-keys', () => {
    it('lists keys without their raw value or hash, oldest first, a page at a time', async () => {
      const issued = await Promise.all([1, 2, 3].map(() => issueKey(testApp, { role: 'auditor', name: 'listed' })));
      const { status, body } = await call(testApp, 'GET', '/admin/api-keys?limit=1000', { key: TEST_ADMIN_KEY });
      expect(status).toBe(200);
      const ids = body.api_keys.map((key: { id: string }) => key.id);
      for (const { api_key: apiKey } of issued) expect(ids).toContain(apiKey.id);
      for (const key of body.api_keys) {
        expect(Object.keys(key).sort()).toEqual([
          'created_at',
          'environment',
          'id',
          'merchant_id',
          'name',
          'partner_id',
          'revoked_at',
          'role',
        ]);
      }
      const text = JSON.stringify(body);
      for (const { key } of issued) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(sha256(key));
      }

      const page = await call(testApp, 'GET', '/admin/api-keys?limit=2&offset=1', { key: TEST_ADMIN_KEY });
      expect(page.body.api_keys.map((key: { id: string }) => key.id)).toEqual(ids.slice(1, 3));
      expect(page.body).toMatchObject({ limit: 2, offset: 1 });
    });

    it.each([['limit=0'], ['limit=1001'], ['offset=-1'], ['limit=ten']])('refuses %s with 400', async (query) => {
      const { status, body } = await call(testApp, 'GET', `/admin/api-keys?${query}`, { key: TEST_ADMIN_KEY });
      expect(status).toBe(400);
      expect(body.error).toBe('VALIDATION_ERROR');
    });
  });

  describe('DELETE /admin/api-keys/{id}', () => {
    it('revokes at once: the next request with the key is a 401', async () => {
      const merchant = await onboardMerchant(testApp);
      const { key, api_key: apiKey } = await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id });
      expect((await whoami(key)).status).toBe(200);

      const answer = await revokeKey(testApp, apiKey.id);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ api_key: { ...apiKey, revoked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } });

      const refused = await whoami(key);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'UNAUTHORIZED', message: 'Invalid or missing API key' });
      const events = await stream(`apiKey-${apiKey.id}`);
      expect(events.map((event) => event.type)).toEqual(['ApiKeyIssued', 'ApiKeyRevoked']);
      expect(events[1].metadata).toMatchObject({
        actor: { keyId: 'env:ADMIN_API_KEY', role: 'admin' },
        merchantId: merchant.merchant_id,
      });
    });

    it('answers a second revocation 200 with the first revocation time, recording nothing more', async () => {
      const { api_key: apiKey } = await issueKey(testApp, { role: 'auditor' });
      const first = await revokeKey(testApp, apiKey.id);
      const second = await revokeKey(testApp, apiKey.id);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(await stream(`apiKey-${apiKey.id}`)).toHaveLength(2);
    });

    it('answers an unknown key with 404', async () => {
      const { status, body } = await revokeKey(testApp, 'key_doesnotexist');
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'NOT_FOUND', message: 'API key key_doesnotexist not found' });
    });

    it('lets an admin key revoke itself', async () => {
      const admin = await issueKey(testApp, { role: 'admin' });
      expect((await revokeKey(testApp, admin.api_key.id, admin.key)).status).toBe(200);
      expect((await whoami(admin.key)).status).toBe(401);
    });
  });

  it('never stores a raw key: no row of any table holds one', async () => {
    const merchant = await onboardMerchant(testApp);
    const partner = await issueKey(testApp, { role: 'partner', environment: 'sandbox' });
    const partnerMerchant = await onboardMerchant(testApp, { environment: 'sandbox' }, partner.key);
    const issued = [
      partner,
      await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id }),
      await issueKey(testApp, { role: 'merchant', merchant_id: partnerMerchant.merchant_id }, partner.key),
      await issueKey(testApp, { role: 'auditor' }),
      await issueKey(testApp, { role: 'admin' }),
    ];
    await revokeKey(testApp, issued[1].api_key.id);
    const secrets = [...issued.map(({ key }) => key), TEST_ADMIN_KEY];

    const db = testApp.app.get<Database>(DATABASE);
    // rm_api_keys is built after the append: every key's row is there once the projectors caught up.
    await readModelsCaughtUp(db);
    const tables = await db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.table_name)).toEqual(
      expect.arrayContaining(['events', 'rm_api_keys', 'rm_merchants']),
    );
    const found: string[] = [];
    let hashesSeen = 0;
    for (const { table_name: tableName } of tables) {
      const rows = await db.query<{ row: string }>(`select t::text as row from "${tableName}" t`);
      for (const { row } of rows) {
        for (const secret of secrets) if (row.includes(secret)) found.push(`${tableName}: ${secret}`);
        hashesSeen += issued.filter(({ key }) => row.includes(sha256(key))).length;
      }
    }
    expect(found).toEqual([]);
    // Each key's hash is in its ApiKeyIssued event and in rm_api_keys: the scan did read the rows.
    expect(hashesSeen).toBe(issued.length * 2);
  });

  it('keeps the read model in step with the log', async () => {
    const { api_key: apiKey } = await issueKey(testApp, { role: 'auditor' });
    expect(await testApp.app.get(ApiKeyDirectory).findById(apiKey.id)).toEqual({
      id: apiKey.id,
      role: 'auditor',
      environment: 'production',
      merchantId: null,
      partnerId: null,
      name: null,
      createdAt: apiKey.created_at,
      revokedAt: null,
    });
  });
});
