import { ForbiddenError } from '../../src/auth/auth.errors';
import { MerchantScope } from '../../src/auth/merchant-scope';
import type { Principal } from '../../src/auth/principal';
import { WhoAmIController, call, createTwoMerchants, issueKey, onboardMerchant, revokeKey, type MerchantFixture } from '../support/auth';
import { recordSale, saleBody } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

/**
 * Broken object-level authorization: merchant A's keys (and A's partner) must never reach B's
 * records. Features add their own cases here (transactions, void, refund, override, export) on the
 * same two merchants from `createTwoMerchants`.
 */
describe('merchant A cannot reach merchant B', () => {
  let testApp: TestApp;
  let a: MerchantFixture;
  let b: MerchantFixture;
  const listedIds = async (key: string) =>
    (await call(testApp, 'GET', '/admin/api-keys?limit=1000', { key })).body.api_keys.map((k: { id: string }) => k.id);

  beforeAll(async () => {
    testApp = await startTestApp({ controllers: [WhoAmIController] });
    ({ a, b } = await createTwoMerchants(testApp));
  });

  afterAll(() => testApp?.close());

  describe("through A's partner key", () => {
    it("cannot issue a key for B's merchant (403, as for a merchant that does not exist)", async () => {
      const forB = await call(testApp, 'POST', '/admin/api-keys', { key: a.partnerKey, body: { role: 'merchant', merchant_id: b.merchantId } });
      const forNobody = await call(testApp, 'POST', '/admin/api-keys', { key: a.partnerKey, body: { role: 'merchant', merchant_id: 'm-nowhere' } });
      expect(forB.status).toBe(403);
      expect(forB.body).toEqual({ error: 'FORBIDDEN', message: `This API key may not act for merchant ${b.merchantId}` });
      expect(forNobody.status).toBe(403);
    });

    it("does not list B's keys, nor any partner key", async () => {
      const ids = await listedIds(a.partnerKey);
      expect(ids).toEqual([a.keyId]);
    });

    it("cannot revoke B's key: 404, exactly as for a key that does not exist", async () => {
      const answer = await revokeKey(testApp, b.keyId, a.partnerKey);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'NOT_FOUND', message: `API key ${b.keyId} not found` });
      expect((await call(testApp, 'GET', '/test-only/whoami', { key: b.key })).status).toBe(200);
    });

    it("cannot revoke B's partner key, nor an admin key (404)", async () => {
      expect((await revokeKey(testApp, b.partnerKeyId, a.partnerKey)).status).toBe(404);
      const admin = await issueKey(testApp, { role: 'admin' });
      expect((await revokeKey(testApp, admin.api_key.id, a.partnerKey)).status).toBe(404);
    });

    it('can revoke the keys of its own merchant', async () => {
      const spare = await issueKey(testApp, { role: 'merchant', merchant_id: a.merchantId }, a.partnerKey);
      expect((await revokeKey(testApp, spare.api_key.id, a.partnerKey)).status).toBe(200);
      expect((await call(testApp, 'GET', '/test-only/whoami', { key: spare.key })).status).toBe(401);
    });

    it('cannot issue anything but merchant keys', async () => {
      for (const role of ['admin', 'auditor', 'partner']) {
        const { status, body } = await call(testApp, 'POST', '/admin/api-keys', { key: a.partnerKey, body: { role } });
        expect([role, status, body.message]).toEqual([role, 403, 'A partner key may issue merchant keys only']);
      }
    });

    it('onboards merchants for its own partner, in its own environment only', async () => {
      const mine = await onboardMerchant(testApp, { environment: 'sandbox' }, a.partnerKey);
      expect(mine.partner_id).not.toBeNull();
      const live = await call(testApp, 'POST', '/admin/merchants', {
        key: a.partnerKey,
        body: { merchant_id: 'm-live-by-sandbox', name: 'X', environment: 'production' },
      });
      expect(live.status).toBe(403);
    });

    it("does not reach its merchants through a key of the partner's other environment", async () => {
      const partnerId = (await call(testApp, 'GET', '/test-only/whoami', { key: a.partnerKey })).body.partnerId;
      const production = await issueKey(testApp, { role: 'partner', environment: 'production', partner_id: partnerId });
      expect(await listedIds(production.key)).toEqual([]);
      const issue = await call(testApp, 'POST', '/admin/api-keys', { key: production.key, body: { role: 'merchant', merchant_id: a.merchantId } });
      expect(issue.status).toBe(403);
      expect((await revokeKey(testApp, a.keyId, production.key)).status).toBe(404);
    });
  });

  describe("through A's merchant key", () => {
    it.each([
      ['list keys', 'GET', '/admin/api-keys', undefined],
      ["revoke B's key", 'DELETE', '/admin/api-keys/{b}', undefined],
      ['issue a key for B', 'POST', '/admin/api-keys', { role: 'merchant', merchant_id: '{b}' }],
      ['onboard a merchant', 'POST', '/admin/merchants', { merchant_id: 'm-by-merchant', name: 'X', environment: 'sandbox' }],
    ])('cannot %s (403)', async (_what, method, path, body) => {
      const fill = (text: string) => text.replace('{b}', path.includes('api-keys/') ? b.keyId : b.merchantId);
      const answer = await call(testApp, method, fill(path), { key: a.key, body: body && JSON.parse(fill(JSON.stringify(body))) });
      expect(answer.status).toBe(403);
    });
  });

  describe("B's transactions", () => {
    let bSale: { id: string };

    beforeAll(async () => {
      bSale = await recordSale(testApp, b.key, b.merchantId);
    });

    it.each([
      ["A's merchant key", () => a.key],
      ["A's partner key", () => a.partnerKey],
    ])('%s cannot read one: 404, exactly as for an id that does not exist', async (_who, key) => {
      const theirs = await call(testApp, 'GET', `/transaction/${bSale.id}`, { key: key() });
      const missing = await call(testApp, 'GET', '/transaction/TXN-2026-01-01-00000000', { key: key() });
      expect(theirs.status).toBe(404);
      expect(theirs.body.error).toBe(missing.body.error);
      expect(theirs.body.message).toBe(missing.body.message.replace('TXN-2026-01-01-00000000', bSale.id));
      expect((await call(testApp, 'GET', `/transaction/${bSale.id}`, { key: b.key })).status).toBe(200);
    });

    it.each([
      ["A's merchant key", () => a.key],
      ["A's partner key", () => a.partnerKey],
    ])("%s cannot list them (403), nor record one for B (403, nothing appended)", async (_who, key) => {
      const list = await call(testApp, 'GET', `/transactions?merchant_id=${b.merchantId}`, { key: key() });
      expect(list.status).toBe(403);
      const before = (await call(testApp, 'GET', `/transactions?merchant_id=${b.merchantId}`, { key: b.key })).body.total;
      const post = await call(testApp, 'POST', '/transaction', { key: key(), body: saleBody(b.merchantId) });
      expect(post.status).toBe(403);
      expect(post.body.error).toBe('FORBIDDEN');
      expect((await call(testApp, 'GET', `/transactions?merchant_id=${b.merchantId}`, { key: b.key })).body.total).toBe(before);
    });

    it("A's merchant key lists only A's, without naming a merchant", async () => {
      const mine = await recordSale(testApp, a.key, a.merchantId);
      const list = await call(testApp, 'GET', '/transactions', { key: a.key });
      expect(list.status).toBe(200);
      expect(list.body.transactions.map((t: { id: string }) => t.id)).toContain(mine.id);
      expect(list.body.transactions.map((t: { id: string }) => t.id)).not.toContain(bSale.id);
    });
  });

  describe('MerchantScope, the one check every feature uses', () => {
    let scope: MerchantScope;
    const principalOf = async (key: string): Promise<Principal> => (await call(testApp, 'GET', '/test-only/whoami', { key })).body;

    beforeAll(() => {
      scope = testApp.app.get(MerchantScope);
    });

    it("lets a merchant key see and act for its own merchant, and not B's", async () => {
      const merchant = await principalOf(a.key);
      expect(await scope.canSee(merchant, a.merchantId)).toBe(true);
      expect(await scope.canSee(merchant, b.merchantId)).toBe(false);
      expect(await scope.canSee(merchant, null)).toBe(false);
      await expect(scope.assertCanActFor(merchant, a.merchantId)).resolves.toBeUndefined();
      await expect(scope.assertCanActFor(merchant, b.merchantId)).rejects.toBeInstanceOf(ForbiddenError);
      expect(await scope.visibleMerchants(merchant)).toEqual([a.merchantId]);
    });

    it("lets a partner key see and act for its merchants, and not B's", async () => {
      const partner = await principalOf(a.partnerKey);
      expect(await scope.canSee(partner, a.merchantId)).toBe(true);
      expect(await scope.canSee(partner, b.merchantId)).toBe(false);
      expect(await scope.canSee(partner, 'm-nowhere')).toBe(false);
      await expect(scope.assertCanActFor(partner, b.merchantId)).rejects.toMatchObject({ status: 403 });
      expect(await scope.visibleMerchants(partner)).toContain(a.merchantId);
      expect(await scope.visibleMerchants(partner)).not.toContain(b.merchantId);
    });

    it('lets an auditor see every merchant and act for none', async () => {
      const auditor = await principalOf((await issueKey(testApp, { role: 'auditor' })).key);
      expect(await scope.canSee(auditor, b.merchantId)).toBe(true);
      expect(await scope.visibleMerchants(auditor)).toBe('all');
      await expect(scope.assertCanActFor(auditor, a.merchantId)).rejects.toBeInstanceOf(ForbiddenError);
    });

    it('lets an admin see and act for every merchant', async () => {
      const admin = await principalOf(TEST_ADMIN_KEY);
      expect(await scope.canSee(admin, b.merchantId)).toBe(true);
      expect(await scope.canSee(admin, null)).toBe(true);
      await expect(scope.assertCanActFor(admin, b.merchantId)).resolves.toBeUndefined();
      expect(await scope.visibleMerchants(admin)).toBe('all');
    });
  });
});
