import { ForbiddenError } from '../../src/platform/errors/request.errors';
import { MerchantScope } from '../../src/auth/merchant-scope';
import type { Principal } from '../../src/platform/identity/principal';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import {
  WhoAmIController,
  call,
  createTwoMerchants,
  issueKey,
  onboardMerchant,
  revokeKey,
  type MerchantFixture,
} from '../support/auth';
import { recordSale, saleBody } from '../support/sales';
import { recordTip, tipCreated } from '../support/tips';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { DATABASE } from '../../src/platform/event-store/sql';
import { readModelsCaughtUp } from '../support/read-models';

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
      const forB = await call(testApp, 'POST', '/admin/api-keys', {
        key: a.partnerKey,
        body: { role: 'merchant', merchant_id: b.merchantId },
      });
      const forNobody = await call(testApp, 'POST', '/admin/api-keys', {
        key: a.partnerKey,
        body: { role: 'merchant', merchant_id: 'm-nowhere' },
      });
      expect(forB.status).toBe(403);
      expect(forB.body).toEqual({
        error: 'FORBIDDEN',
        message: `This API key may not act for merchant ${b.merchantId}`,
      });
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
      const issue = await call(testApp, 'POST', '/admin/api-keys', {
        key: production.key,
        body: { role: 'merchant', merchant_id: a.merchantId },
      });
      expect(issue.status).toBe(403);
      expect((await revokeKey(testApp, a.keyId, production.key)).status).toBe(404);
    });
  });

  describe("through A's merchant key", () => {
    it.each([
      ['list keys', 'GET', '/admin/api-keys', undefined],
      ["revoke B's key", 'DELETE', '/admin/api-keys/{b}', undefined],
      ['issue a key for B', 'POST', '/admin/api-keys', { role: 'merchant', merchant_id: '{b}' }],
      [
        'onboard a merchant',
        'POST',
        '/admin/merchants',
        { merchant_id: 'm-by-merchant', name: 'X', environment: 'sandbox' },
      ],
    ])('cannot %s (403)', async (_what, method, path, body) => {
      const fill = (text: string) => text.replace('{b}', path.includes('api-keys/') ? b.keyId : b.merchantId);
      const answer = await call(testApp, method, fill(path), {
        key: a.key,
        body: body && JSON.parse(fill(JSON.stringify(body))),
      });
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

    const operations = [
      [
        'void it',
        'POST',
        '/transaction/void',
        (id: string) => ({ original_transaction_id: id, void_reason: 'pricing_error', voided_by: 'e-1' }),
      ],
      [
        'refund it',
        'POST',
        '/transaction/refund',
        (id: string) => ({
          original_transaction_id: id,
          refund_amount: 100,
          void_reason: 'wrong_item',
          voided_by: 'e-1',
        }),
      ],
      [
        'override it',
        'POST',
        '/transaction/override',
        (id: string) => ({
          transaction_id: id,
          employee_id: 'e-1',
          employee_name: 'A',
          reason: 'system-error',
          new_cash_total_cents: 1,
        }),
      ],
      ['read its receipt', 'GET', '/transaction/{id}/receipt?format=audit', undefined],
    ] as const;
    const keysOfA = [
      ["A's merchant key", () => a.key],
      ["A's partner key", () => a.partnerKey],
    ] as const;

    it.each(
      keysOfA.flatMap(([who, key]) =>
        operations.map(([what, method, path, body]) => [who, what, key, method, path, body] as const),
      ),
    )(
      '%s cannot %s: 404, exactly as for an id that does not exist, and nothing is appended',
      async (_who, _what, key, method, path, body) => {
        const request = (id: string) =>
          call(testApp, method, path.replace('{id}', id), { key: key(), body: body?.(id) });
        const theirs = await request(bSale.id);
        const missing = await request('TXN-2026-01-01-00000000');
        expect(theirs.status).toBe(404);
        expect(theirs.body).toEqual({
          ...missing.body,
          message: missing.body.message.replace('TXN-2026-01-01-00000000', bSale.id),
        });
        const seenByB = (await call(testApp, 'GET', `/transaction/${bSale.id}`, { key: b.key })).body.transaction;
        expect(seenByB).toMatchObject({
          state: 'completed',
          history: [expect.objectContaining({ event: 'TransactionRecorded' })],
        });
        expect(seenByB.history).toHaveLength(1);
      },
    );

    it.each([
      ["A's merchant key", () => a.key],
      ["A's partner key", () => a.partnerKey],
    ])('%s cannot list them (403), nor record one for B (403, nothing appended)', async (_who, key) => {
      const list = await call(testApp, 'GET', `/transactions?merchant_id=${b.merchantId}`, { key: key() });
      expect(list.status).toBe(403);
      // The list is built after the append: B's earlier sales are in it before it is counted.
      await readModelsCaughtUp(testApp.app.get(DATABASE));
      const before = (await call(testApp, 'GET', `/transactions?merchant_id=${b.merchantId}`, { key: b.key })).body
        .total;
      const post = await call(testApp, 'POST', '/transaction', { key: key(), body: saleBody(b.merchantId) });
      expect(post.status).toBe(403);
      expect(post.body.error).toBe('FORBIDDEN');
      expect((await call(testApp, 'GET', `/transactions?merchant_id=${b.merchantId}`, { key: b.key })).body.total).toBe(
        before,
      );
    });

    it("A's merchant key lists only A's, without naming a merchant", async () => {
      const mine = await recordSale(testApp, a.key, a.merchantId);
      // As of the sale's position at least: the list follows the log, and holds B's sale made before.
      const list = await call(testApp, 'GET', `/transactions?min_position=${mine.chain_position}`, { key: a.key });
      expect(list.status).toBe(200);
      expect(list.body.transactions.map((t: { id: string }) => t.id)).toContain(mine.id);
      expect(list.body.transactions.map((t: { id: string }) => t.id)).not.toContain(bSale.id);
    });

    it("A's keys cannot export them: naming B is a 403, and A's own export leaves them out", async () => {
      for (const key of [a.key, a.partnerKey]) {
        const named = await call(testApp, 'POST', '/export', { key, body: { merchant_id: b.merchantId } });
        expect([named.status, named.body.error]).toEqual([403, 'FORBIDDEN']);
      }
      const own = await call(testApp, 'POST', '/export', { key: a.key, body: {} });
      expect(own.status).toBe(200);
      expect(own.body).not.toContain(bSale.id);
      expect((await call(testApp, 'POST', '/export', { key: b.key, body: {} })).body).toContain(bSale.id);
    });
  });

  describe("B's tips", () => {
    let bSaleId: string;
    let bTipId: string;
    let bPoolId: string;
    const head = async () => (await testApp.app.get(EventStore).head()).position;

    beforeAll(async () => {
      bSaleId = (await recordSale(testApp, b.key, b.merchantId)).id;
      bTipId = (await recordTip(testApp, b.key, bSaleId)).id;
      const pooled = await recordTip(testApp, b.key, bSaleId);
      const participants = [{ employeeId: 'e-1', employeeName: 'Ana' }];
      bPoolId = (
        await tipCreated(testApp, b.key, '/tip/pool/create', {
          pool_name: 'B',
          distribution_method: 'equal',
          tip_ids: [pooled.id],
          participants,
        })
      ).pool.id;
    });

    it.each([
      ["A's merchant key", () => a.key],
      ["A's partner key", () => a.partnerKey],
    ])(
      '%s gets 404 for each of them, exactly as for an id that does not exist, and appends nothing',
      async (_who, key) => {
        const before = await head();
        const tip = { employee_id: 'e-1', employee_name: 'Ana', tip_amount: 1 };
        const cases: [string, Record<string, unknown>, string, string][] = [
          ['/tip/cash', { ...tip, transaction_id: bSaleId }, bSaleId, 'TXN-2026-01-01-00000000'],
          ['/tip/credit-card', { ...tip, transaction_id: bSaleId }, bSaleId, 'TXN-2026-01-01-00000000'],
          ['/tip/adjust', { tip_id: bTipId, new_amount: 0, reason: 'x' }, bTipId, 'TIP-2026-01-01-00000000'],
          ['/tip/pool/distribute', { pool_id: bPoolId }, bPoolId, 'POOL-2026-01-01-00000000'],
        ];
        for (const [path, body, theirId, missingId] of cases) {
          const theirs = await call(testApp, 'POST', path, { key: key(), body });
          const missing = await call(testApp, 'POST', path, {
            key: key(),
            body: JSON.parse(JSON.stringify(body).replace(theirId, missingId)),
          });
          expect([path, theirs.status, theirs.body.error]).toEqual([path, 404, 'NOT_FOUND']);
          expect(theirs.body.message).toBe(missing.body.message.replace(missingId, theirId));
        }
        const pool = {
          pool_name: 'A',
          distribution_method: 'equal',
          tip_ids: [bTipId],
          participants: [{ employeeId: 'e-1', employeeName: 'Ana' }],
        };
        const pooling = await call(testApp, 'POST', '/tip/pool/create', {
          key: key(),
          body: { ...pool, merchant_id: a.merchantId },
        });
        expect(pooling.status).toBe(404);
        expect(await head()).toBe(before);
      },
    );

    it.each([
      ["A's merchant key", () => a.key],
      ["A's partner key", () => a.partnerKey],
    ])('%s cannot act for B by naming it (403, nothing appended)', async (_who, key) => {
      const before = await head();
      const bodies: [string, Record<string, unknown>][] = [
        ['/tip/cash', { transaction_id: bSaleId, employee_id: 'e-1', employee_name: 'Ana', tip_amount: 1 }],
        ['/tip/payout', { employee_id: 'e-1', employee_name: 'Ana', payout_amount: 1, payout_method: 'cash' }],
        ['/tip/validate-compliance', { state: 'TX', hourly_wage: 2.13, average_tips_per_hour: 6 }],
        [
          '/tip/pool/create',
          {
            pool_name: 'A',
            distribution_method: 'equal',
            tip_ids: [bTipId],
            participants: [{ employeeId: 'e-1', employeeName: 'Ana' }],
          },
        ],
      ];
      for (const [path, body] of bodies) {
        const answer = await call(testApp, 'POST', path, { key: key(), body: { ...body, merchant_id: b.merchantId } });
        expect([path, answer.status, answer.body.error]).toEqual([path, 403, 'FORBIDDEN']);
      }
      expect(await head()).toBe(before);
    });
  });

  describe('MerchantScope, the one check every feature uses', () => {
    let scope: MerchantScope;
    const principalOf = async (key: string): Promise<Principal> =>
      (await call(testApp, 'GET', '/test-only/whoami', { key })).body;

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
