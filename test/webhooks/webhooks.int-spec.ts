import { Clock } from '../../src/platform/clock';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { loadSeeds } from '../../src/jurisdiction/seed-loader';
import type { JurisdictionRule } from '../../src/rules/jurisdiction-rule';
import { RETRY_DELAYS_MS, WebhookDeliverer } from '../../src/webhooks/deliver/webhook-deliverer';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/webhook-events';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { recordSale } from '../support/sales';
import { changeData } from '../support/tampering';
import { recordTip } from '../support/tips';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { verified, WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from '../support/wait';

const DAY_MS = 86_400_000;

/** Signed webhooks over real HTTP, each delivery verified by the `standardwebhooks` library. */
describe('signed webhooks', () => {
  const clock = new FixedClock();
  let app: TestApp;
  let db: Database;
  let receiver: WebhookReceiver;
  let shop: { key: string; id: string };

  const post = (path: string, body: unknown, key = TEST_ADMIN_KEY) => call(app, 'POST', path, { key, body });
  const subscribe = async (eventTypes: string[], key = TEST_ADMIN_KEY): Promise<{ id: string; secret: string }> => {
    const { status, body } = await post('/webhooks/endpoints', { url: receiver.url, event_types: eventTypes }, key);
    expect(status).toBe(201);
    expect(body.secret).toMatch(/^whsec_/);
    return body;
  };
  const voidSale = async () => {
    const sale = await recordSale(app, shop.key, shop.id);
    const { status } = await post(
      '/transaction/void',
      { original_transaction_id: sale.id, void_reason: 'pricing_error', voided_by: 'manager-1' },
      shop.key,
    );
    expect(status).toBe(201);
    return sale.id as string;
  };
  /**
   * The fan-out has read the log to its head and a pass of the deliverer has tried every delivery due
   * now: what the receiver has not got by then was not sent, rather than not sent yet.
   */
  const settled = async () => {
    const [{ position: head }] = await db.query<{ position: string }>('select position from event_store_head');
    await waitFor('the fan-out to reach the head of the log', async () => {
      const [fanOut] = await db.query<{ position: string }>(
        "select position from projection_checkpoints where name = 'webhook-fan-out'",
      );
      return Number(fanOut.position) >= Number(head);
    });
    await app.app.get(WebhookDeliverer).idle();
  };
  const deliveries = async (endpointId: string) =>
    (await call(app, 'GET', `/webhooks/deliveries?endpoint_id=${endpointId}`, { key: TEST_ADMIN_KEY })).body.deliveries;

  beforeAll(async () => {
    app = await startTestApp({
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50' },
    });
    db = app.app.get(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    shop = { id: merchantId, key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key };
  });

  beforeEach(async () => {
    receiver = await WebhookReceiver.start(() => clock.now());
  });

  afterEach(async () => {
    for (const { id } of (await call(app, 'GET', '/webhooks/endpoints', { key: TEST_ADMIN_KEY })).body.endpoints) {
      await call(app, 'DELETE', `/webhooks/endpoints/${id}`, { key: TEST_ADMIN_KEY });
    }
    await receiver.close();
  });

  afterAll(() => app?.close());

  it('delivers every event type, signed, with a small payload naming its log entry; a merchant endpoint gets its merchant’s only', async () => {
    const admin = await subscribe([...WEBHOOK_EVENT_TYPES]);
    const own = await subscribe(['transaction.voided'], shop.key);
    const other = await onboardMerchant(app);
    const otherKey = (await issueKey(app, { role: 'merchant', merchant_id: other.merchant_id })).key;

    // merchant.risk_level.changed: a ZIP that contradicts the state makes the sale LOW risk, after NONE.
    await recordSale(app, shop.key, shop.id, { zip_code: '85004', state: 'AL' });
    const overridden = await recordSale(app, shop.key, shop.id);
    expect(
      (
        await post(
          '/transaction/override',
          {
            transaction_id: overridden.id,
            employee_id: 'e-9',
            employee_name: 'Zoë',
            reason: 'manager-discretion',
            new_cash_total_cents: 1000,
          },
          shop.key,
        )
      ).status,
    ).toBe(201);
    const voidedSale = await voidSale();
    const otherSale = await recordSale(app, otherKey, other.merchant_id);
    await post(
      '/transaction/void',
      { original_transaction_id: otherSale.id, void_reason: 'pricing_error', voided_by: 'm-1' },
      otherKey,
    );
    // A refund of 501 of a sale of 1003 (cash 1005, +2) rounds to 500 (+1): the same way, so the normalization check fails.
    const refunded = await recordSale(app, shop.key, shop.id);
    expect(
      (
        await post(
          '/transaction/refund',
          {
            original_transaction_id: refunded.id,
            refund_amount: 501,
            void_reason: 'defective_product',
            voided_by: 'e-3',
          },
          shop.key,
        )
      ).status,
    ).toBe(201);
    const tipped = await recordSale(app, shop.key, shop.id, { payment_method: 'card' });
    const tip = await recordTip(app, shop.key, tipped.id, { tip_amount: 5 });
    expect(
      (await post('/tip/adjust', { tip_id: tip.id, new_amount: 1, reason: 'slip misread' }, shop.key)).status,
    ).toBe(201);
    // A rule version effective in two days: scheduled now, effective on its date.
    const effective = new Date(clock.now().getTime() + 2 * DAY_MS).toISOString().slice(0, 10);
    const seed = loadSeeds().rules.find((rule) => rule.lookup_key === 'OR' && rule.rule_type === 'rounding')!;
    const version: JurisdictionRule = {
      ...structuredClone(seed),
      effective_date: effective,
      notes: 'Recorded by the webhooks e2e test.',
      last_verified: '2026-11-21',
    };
    expect((await call(app, 'PUT', '/admin/jurisdictions/OR', { key: TEST_ADMIN_KEY, body: version })).status).toBe(
      201,
    );
    // chain.alarm: an entry changed behind the service's back, found by a verification.
    const [{ position }] = await db.query<{ position: string }>(
      "select min(position) as position from events where event_type = 'TransactionRecorded'",
    );
    await changeData(db, Number(position), ['calculation', 'cash_total_cents'], 1);
    expect((await call(app, 'GET', '/admin/verify-hash-chain', { key: TEST_ADMIN_KEY })).body.break_count).toBe(1);

    const beforeDate = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'jurisdiction.rule.effective');
    await receiver.waitFor('every event but the effective one', (got) =>
      beforeDate.every((type) => got.some((r) => r.type === type)),
    );
    await settled();
    expect(receiver.received.some((r) => r.type === 'jurisdiction.rule.effective')).toBe(false);
    clock.advance(2 * DAY_MS);
    await receiver.waitFor('jurisdiction.rule.effective on its date', (got) =>
      got.some((r) => r.type === 'jurisdiction.rule.effective'),
    );

    const toAdmin = receiver.received.filter((r) => !verifiesWith(r, own.secret));
    for (const received of toAdmin) {
      const payload = verified(received, admin.secret);
      expect(payload.data.position).toEqual(expect.any(Number));
      expect(received.body.length).toBeLessThan(600);
    }
    expect([...new Set(toAdmin.map((r) => r.type))].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const byType = (type: string) => toAdmin.filter((r) => r.type === type).map((r) => JSON.parse(r.body).data);
    expect(byType('merchant.risk_level.changed')).toContainEqual(
      expect.objectContaining({ merchant_id: shop.id, previous_risk_level: 'NONE', risk_level: 'LOW' }),
    );
    expect(byType('transaction.overridden')).toEqual([
      expect.objectContaining({ transaction_id: overridden.id, new_cash_total_cents: 1000 }),
    ]);
    expect(byType('refund.normalization_failed')).toEqual([
      expect.objectContaining({
        original_transaction_id: refunded.id,
        original_rounding_delta_cents: 2,
        refund_rounding_delta_cents: 1,
      }),
    ]);
    expect(byType('tips.wage_theft.flagged')).toEqual([
      expect.objectContaining({ tip_id: tip.id, previous_amount_cents: 500, new_amount_cents: 100 }),
    ]);
    expect(byType('chain.alarm')).toEqual([
      expect.objectContaining({ source: 'verification', kind: 'modified', alarm_position: Number(position) }),
    ]);
    expect(byType('jurisdiction.rule.effective')).toEqual([
      expect.objectContaining({ lookup_key: 'OR', effective_date: effective }),
    ]);
    // The merchant's endpoint: its own void, never the other merchant's.
    const toShop = receiver.received.filter((r) => verifiesWith(r, own.secret));
    expect(toShop.map((r) => JSON.parse(r.body).data)).toEqual([
      expect.objectContaining({ original_transaction_id: voidedSale, merchant_id: shop.id }),
    ]);
  });

  it('tries a receiver that answered 500 again after 5 s with the same webhook-id, and a failing event holds up no later one', async () => {
    const endpoint = await subscribe(['transaction.voided']);
    receiver.answers = [500];
    await voidSale();
    const [first] = await receiver.waitFor('the first try', (got) => got.length === 1);
    await voidSale();
    const [, later] = await receiver.waitFor(
      'the later event, delivered while the first waits',
      (got) => got.length === 2,
    );
    expect(later.webhookId).not.toBe(first.webhookId);
    await settled();
    expect(receiver.received).toHaveLength(2);
    expect(await deliveries(endpoint.id)).toContainEqual(
      expect.objectContaining({ webhook_id: first.webhookId, status: 'pending', attempts: 1, last_status_code: 500 }),
    );
    clock.advance(5_000);
    const [, , retry] = await receiver.waitFor('the retry', (got) => got.length === 3);
    expect(retry.webhookId).toBe(first.webhookId);
    expect(retry.body).toBe(first.body);
    for (const received of receiver.received) verified(received, endpoint.secret);
    // The receiver has the retry before the deliverer has written its answer down.
    await waitFor('the retry written down as delivered', async () =>
      (await deliveries(endpoint.id)).some(
        (d: { webhook_id: string; status: string }) => d.webhook_id === first.webhookId && d.status === 'delivered',
      ),
    );
    expect(await deliveries(endpoint.id)).toContainEqual(
      expect.objectContaining({
        webhook_id: first.webhookId,
        status: 'delivered',
        attempts: 2,
        last_status_code: 200,
        next_attempt_at: null,
      }),
    );
  });

  it('tries on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then marks the delivery failed', async () => {
    const endpoint = await subscribe(['transaction.voided']);
    receiver.answers = Array.from({ length: 8 }, () => 503);
    await voidSale();
    await receiver.waitFor('the first try', (got) => got.length === 1);
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      clock.advance(delay - 1000);
      await settled();
      expect(receiver.received).toHaveLength(i + 1);
      clock.advance(1000);
      await receiver.waitFor(`try ${i + 2}`, (got) => got.length === i + 2);
    }
    await waitFor('the delivery marked failed', async () => (await deliveries(endpoint.id))[0]?.status === 'failed');
    expect(await deliveries(endpoint.id)).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 8, last_status_code: 503, next_attempt_at: null }),
    ]);
    expect(new Set(receiver.received.map((r) => r.webhookId)).size).toBe(1);
    clock.advance(DAY_MS);
    await settled();
    expect(receiver.received).toHaveLength(8);
  });

  it('follows no redirect: a 302 is a failed try', async () => {
    const endpoint = await subscribe(['transaction.voided']);
    receiver.answers = [302];
    await voidSale();
    await receiver.waitFor('the try', (got) => got.length === 1);
    await settled();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(endpoint.id)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, last_status_code: 302 }),
    ]);
  });

  it('disables an endpoint whose receiver answers 410, and sends it nothing more', async () => {
    const endpoint = await subscribe(['transaction.voided']);
    receiver.answers = [410];
    await voidSale();
    await receiver.waitFor('the try', (got) => got.length === 1);
    await waitFor(
      'the endpoint disabled',
      async () =>
        (await call(app, 'GET', `/webhooks/endpoints/${endpoint.id}`, { key: TEST_ADMIN_KEY })).body.status ===
        'disabled',
    );
    expect(await deliveries(endpoint.id)).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 1, last_status_code: 410 }),
    ]);
    await voidSale();
    await settled();
    expect(receiver.received).toHaveLength(1);
  });

  it('signs with both secrets during a rotation, each verifying on its own', async () => {
    const endpoint = await subscribe(['transaction.voided']);
    const { status, body } = await post(`/webhooks/endpoints/${endpoint.id}/rotate-secret`, undefined);
    expect(status).toBe(200);
    expect(body.secret).not.toBe(endpoint.secret);
    await voidSale();
    const [received] = await receiver.waitFor('the delivery', (got) => got.length === 1);
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, body.secret]) {
      const signatures = String(received.headers['webhook-signature']).split(' ');
      // Each signature alone verifies with its own secret.
      expect(
        signatures.filter((signature) =>
          verifiesWith({ ...received, headers: { ...received.headers, 'webhook-signature': signature } }, secret),
        ),
      ).toHaveLength(1);
    }
    clock.advance(DAY_MS + 1000);
    await voidSale();
    const [, after] = await receiver.waitFor('a delivery after the overlap', (got) => got.length === 2);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verified(after, body.secret);
    expect(verifiesWith(after, endpoint.secret)).toBe(false);
  });

  it('replays by position and by time with the same webhook-id', async () => {
    const endpoint = await subscribe(['transaction.voided']);
    const since = clock.now().toISOString();
    await voidSale();
    const [first] = await receiver.waitFor('the delivery', (got) => got.length === 1);
    const { position } = JSON.parse(first.body).data;
    await waitFor(
      'the delivery marked delivered',
      async () => (await deliveries(endpoint.id))[0]?.status === 'delivered',
    );
    expect((await post(`/webhooks/endpoints/${endpoint.id}/replay`, { from_position: position })).body).toEqual({
      replayed: 1,
    });
    const [, again] = await receiver.waitFor('the replay', (got) => got.length === 2);
    expect(again.webhookId).toBe(first.webhookId);
    expect(again.body).toBe(first.body);
    verified(again, endpoint.secret);
    await waitFor(
      'the delivery marked delivered',
      async () => (await deliveries(endpoint.id))[0]?.status === 'delivered',
    );
    expect((await post(`/webhooks/endpoints/${endpoint.id}/replay`, { since })).body).toEqual({ replayed: 1 });
    const [, , third] = await receiver.waitFor('the replay by time', (got) => got.length === 3);
    expect(third.webhookId).toBe(first.webhookId);
    expect((await post(`/webhooks/endpoints/${endpoint.id}/replay`, { from_position: position, since })).status).toBe(
      400,
    );
    // A position in a JSON body is a number: its decimal text is refused, not read as one (issue 48).
    expect(await post(`/webhooks/endpoints/${endpoint.id}/replay`, { from_position: String(position) })).toMatchObject({
      status: 400,
      body: {
        error: 'VALIDATION_ERROR',
        details: [{ field: 'from_position', messages: expect.arrayContaining(['from_position must be an integer']) }],
      },
    });
  });

  it('scopes endpoints by key: another merchant’s is a 404, chain.alarm is for admin and auditor keys only', async () => {
    const endpoint = await subscribe(['transaction.voided'], shop.key);
    const other = await onboardMerchant(app);
    const otherKey = (await issueKey(app, { role: 'merchant', merchant_id: other.merchant_id })).key;
    expect((await call(app, 'GET', `/webhooks/endpoints/${endpoint.id}`, { key: otherKey })).status).toBe(404);
    expect((await call(app, 'DELETE', `/webhooks/endpoints/${endpoint.id}`, { key: otherKey })).status).toBe(404);
    expect((await call(app, 'GET', '/webhooks/endpoints', { key: otherKey })).body.endpoints).toEqual([]);
    const { status, body } = await post(
      '/webhooks/endpoints',
      { url: receiver.url, event_types: ['chain.alarm'] },
      otherKey,
    );
    expect({ status, error: body.error }).toEqual({ status: 403, error: 'FORBIDDEN' });
    const auditor = (await issueKey(app, { role: 'auditor' })).key;
    expect(
      (await post('/webhooks/endpoints', { url: receiver.url, event_types: ['chain.alarm'] }, auditor)).status,
    ).toBe(201);
    const listed = (await call(app, 'GET', '/webhooks/endpoints', { key: shop.key })).body.endpoints;
    expect(listed).toEqual([
      expect.objectContaining({ id: endpoint.id, owner_role: 'merchant', merchant_id: shop.id }),
    ]);
    expect(listed[0]).not.toHaveProperty('secret');
  });
});

/** SSRF (docs/design.md): without WEBHOOK_ALLOW_PRIVATE, URLs to private addresses are refused at creation. */
describe('webhook URLs to private addresses', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(() => app?.close());

  it.each([
    ['loopback', 'http://127.0.0.1:8080/hooks', '127.0.0.1'],
    ['a private network', 'http://10.1.2.3/hooks', '10.1.2.3'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['IPv6 loopback', 'http://[::1]:8080/hooks', '::1'],
    ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1'],
    ['a name that resolves to loopback', 'http://localhost:8080/hooks', 'localhost'],
  ])('refuses %s', async (_what, url, host) => {
    const before = await app.app
      .get<symbol, Database>(DATABASE)
      .query('select count(*)::int as n from webhook_endpoints');
    const { status, body } = await call(app, 'POST', '/webhooks/endpoints', {
      key: TEST_ADMIN_KEY,
      body: { url, event_types: ['transaction.voided'] },
    });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'WEBHOOK_URL_REFUSED' });
    expect(body.message).toContain(`(${host} is `);
    expect(
      await app.app.get<symbol, Database>(DATABASE).query('select count(*)::int as n from webhook_endpoints'),
    ).toEqual(before);
  });

  it('refuses a URL that is not http or https', async () => {
    const { status, body } = await call(app, 'POST', '/webhooks/endpoints', {
      key: TEST_ADMIN_KEY,
      body: { url: 'file:///etc/passwd', event_types: ['transaction.voided'] },
    });
    expect({ status, error: body.error, message: body.message }).toEqual({
      status: 400,
      error: 'WEBHOOK_URL_REFUSED',
      message: 'The webhook URL must be an http or https URL',
    });
  });
});

function verifiesWith(received: Parameters<typeof verified>[0], secret: string): boolean {
  try {
    verified(received, secret);
    return true;
  } catch {
    return false;
  }
}
