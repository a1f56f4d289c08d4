import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { recordSale } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { verified, WebhookReceiver } from '../support/webhook-receiver';

/**
 * A receiver that holds every request open until `release()`, counting the requests it holds, per
 * path and in all, and the most it ever held: a merchant's slow endpoints.
 */
class SlowReceiver {
  readonly held: { path: string; response: ServerResponse; since: number }[] = [];
  maxHeld = 0;
  readonly maxHeldByPath = new Map<string, number>();
  received = 0;
  private released = false;
  private readonly server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      this.received++;
      if (this.released) return void response.end('ok');
      this.held.push({ path: request.url!, response, since: Date.now() });
      this.maxHeld = Math.max(this.maxHeld, this.held.length);
      const onPath = this.held.filter((h) => h.path === request.url).length;
      this.maxHeldByPath.set(request.url!, Math.max(this.maxHeldByPath.get(request.url!) ?? 0, onPath));
      response.on('close', () =>
        this.held.splice(this.held.indexOf(this.held.find((h) => h.response === response)!), 1),
      );
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  release(): void {
    this.released = true;
    for (const { response } of [...this.held]) response.end('ok');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The service's sessions on its database that have sat idle inside a transaction for over half a
 * second: one held across an HTTP call to a receiver that does not answer would be one.
 */
async function idleInTransaction(db: Database): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
       and state like 'idle in transaction%' and state_change < clock_timestamp() - interval '500 milliseconds'`,
  );
  return n;
}

async function waitUntil(what: string, done: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + limitMs; !(await done()); await sleep(25)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** Webhooks under load and under attack: fairness between merchants, the endpoint bound, rows forged in the outbox. */
describe('webhook deliveries: bounded, fair, and only of the log', () => {
  let app: TestApp;
  let db: Database;

  const post = (path: string, body: unknown, key = TEST_ADMIN_KEY) => call(app, 'POST', path, { key, body });
  const merchant = async () => {
    const { merchant_id: merchantId } = await onboardMerchant(app);
    return { id: merchantId, key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key };
  };
  const voidSale = async (shop: { id: string; key: string }) => {
    const sale = await recordSale(app, shop.key, shop.id);
    const voided = await post(
      '/transaction/void',
      { original_transaction_id: sale.id, void_reason: 'pricing_error', voided_by: 'manager-1' },
      shop.key,
    );
    expect(voided.status).toBe(201);
  };
  const subscribe = async (url: string, key: string) => {
    const { status, body } = await post('/webhooks/endpoints', { url, event_types: ['transaction.voided'] }, key);
    expect(status).toBe(201);
    return body as { id: string; secret: string };
  };

  beforeAll(async () => {
    app = await startTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50', WEBHOOK_MAX_ENDPOINTS: '5' },
    });
    db = app.app.get(DATABASE);
  });

  afterAll(() => app?.close());

  it('holds at most 2 tries per endpoint and 4 per merchant in flight, with no transaction open, and another merchant’s delivery goes at once', async () => {
    const slow = await new SlowReceiver().start();
    const fast = await WebhookReceiver.start();
    try {
      const busy = await merchant();
      for (const n of [1, 2, 3, 4]) await subscribe(slow.url(`/slow/${n}`), busy.key);
      for (let i = 0; i < 3; i++) await voidSale(busy);
      await waitUntil('the busy merchant’s receivers holding 4 tries', () => slow.held.length === 4);

      const other = await merchant();
      const endpoint = await subscribe(fast.url, other.key);
      await voidSale(other);
      const voidedAt = Date.now();
      // Well inside the 10 s a held try may last: the other merchant's delivery waits for none of them.
      const [received] = await fast.waitFor('the other merchant’s delivery', (got) => got.length === 1, 5000);
      expect(received.at.getTime() - voidedAt).toBeLessThan(5000);
      verified(received, endpoint.secret);

      expect(slow.maxHeld).toBe(4);
      expect(Math.max(...slow.maxHeldByPath.values())).toBeLessThanOrEqual(2);
      await waitUntil('4 tries held for a second', () => slow.held.every(({ since }) => Date.now() - since > 1000));
      expect(slow.held).toHaveLength(4);
      expect(await idleInTransaction(db)).toBe(0);
      slow.release();
      await waitUntil('all 12 of the busy merchant’s deliveries delivered', async () => {
        const [{ n }] = await db.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
           where e.owner_merchant_id = $1 and d.status = 'delivered'`,
          [busy.id],
        );
        return n === 12;
      });
    } finally {
      await slow.close();
      await fast.close();
    }
  });

  it('refuses an endpoint past WEBHOOK_MAX_ENDPOINTS per merchant with 409, and writes nothing', async () => {
    const shop = await merchant();
    const url = 'http://127.0.0.1:9/hooks';
    for (let n = 0; n < 5; n++) await subscribe(url, shop.key);
    const count = async () =>
      (
        await db.query<{ n: number }>('select count(*)::int as n from webhook_endpoints where owner_merchant_id = $1', [
          shop.id,
        ])
      )[0].n;
    const { status, body } = await post('/webhooks/endpoints', { url, event_types: ['transaction.voided'] }, shop.key);
    expect({ status, body }).toEqual({
      status: 409,
      body: {
        error: 'WEBHOOK_ENDPOINT_LIMIT_REACHED',
        message: 'This owner has 5 webhook endpoints, the most allowed; delete one before adding another',
      },
    });
    expect(await count()).toBe(5);
    // Another merchant's room is its own.
    await subscribe(url, (await merchant()).key);
    const [first] = (await call(app, 'GET', '/webhooks/endpoints', { key: shop.key })).body.endpoints;
    expect((await call(app, 'DELETE', `/webhooks/endpoints/${first.id}`, { key: shop.key })).status).toBe(204);
    await subscribe(url, shop.key);
    expect(await count()).toBe(5);
    for (const { id } of (await call(app, 'GET', '/webhooks/endpoints', { key: shop.key })).body.endpoints)
      await call(app, 'DELETE', `/webhooks/endpoints/${id}`, { key: shop.key });
  });

  it('signs and sends no row written into the outbox by SQL, and raises the alarm', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const endpoint = await subscribe(receiver.url, TEST_ADMIN_KEY);
      const [head] = await db.query<{ position: string; hash: string }>(
        'select position, hash from events order by position desc limit 1',
      );
      const beyond = Number(head.position) + 50;
      const forge = (webhookId: string, position: number, hash: string | null) =>
        db.query(
          `insert into webhook_deliveries (endpoint_id, webhook_id, event_type, position, entry_hash, event_time, payload, status, attempts, next_attempt_at)
           values ($1, $2, 'transaction.voided', $3, $4, now(), $5, 'pending', 0, now() - interval '1 minute')`,
          [
            endpoint.id,
            webhookId,
            position,
            hash,
            JSON.stringify({
              type: 'transaction.voided',
              timestamp: new Date().toISOString(),
              data: { position, merchant_id: 'forged', cash_total_cents: 100000 },
            }),
          ],
        );
      await forge(`msg_${beyond}_0`, beyond, 'f'.repeat(64));
      await forge(`msg_${head.position}_7`, Number(head.position), '0'.repeat(64));
      // The log's own position and hash, with a payload of the forger's.
      await forge(`msg_${head.position}_0`, Number(head.position), head.hash);

      await voidSale(await merchant());
      const [genuine] = await receiver.waitFor('the genuine delivery', (got) => got.length === 1);
      verified(genuine, endpoint.secret);
      const forged = () =>
        db.query<{ webhook_id: string; status: string; attempts: number; last_error: string }>(
          'select webhook_id, status, attempts, last_error from webhook_deliveries where endpoint_id = $1 and webhook_id <> $2 order by id',
          [endpoint.id, genuine.webhookId],
        );
      await waitUntil('the forged rows refused', async () => (await forged()).every((row) => row.status === 'failed'));
      expect(await forged()).toEqual([
        {
          webhook_id: `msg_${beyond}_0`,
          status: 'failed',
          attempts: 1,
          last_error: `not sent: the log has no entry at its position ${beyond}`,
        },
        {
          webhook_id: `msg_${head.position}_7`,
          status: 'failed',
          attempts: 1,
          last_error: `not sent: its entry hash ${'0'.repeat(64)} is not the log's ${head.hash} at position ${head.position}`,
        },
        {
          webhook_id: `msg_${head.position}_0`,
          status: 'failed',
          attempts: 1,
          last_error: `not sent: its webhook-id and payload are not what the log's entry at position ${head.position} makes`,
        },
      ]);
      await sleep(200);
      expect(receiver.received.map((r) => r.webhookId)).toEqual([genuine.webhookId]);

      // One alarm per position: the two rows at the head's position raise one.
      const alarmed = async () =>
        (
          await db.query<{ source: string; kind: string; position: number }>(
            "select data->>'source' as source, data->>'kind' as kind, (data->>'position')::int as position from events where event_type = 'ChainAlarmRaised' order by position",
          )
        ).map((row) => `${row.source} ${row.kind} ${row.position}`);
      await waitUntil('the alarms in the log', async () => (await alarmed()).length === 2);
      expect((await alarmed()).sort()).toEqual(
        [`webhooks delivery-not-in-log ${beyond}`, `webhooks delivery-not-in-log ${head.position}`].sort(),
      );
      const { body: health } = await call(app, 'GET', '/health');
      expect(health.status).toBe('degraded');
      expect(health.chain.alarms).toContainEqual({
        source: 'webhooks',
        kind: 'delivery-not-in-log',
        position: beyond,
        detail: expect.stringContaining(
          `(msg_${beyond}_0) was not sent: the log has no entry at its position ${beyond}`,
        ),
      });
    } finally {
      await receiver.close();
    }
  });
});

/** The host's own address that is not loopback, as a URL host. */
function ownAddress(): string {
  const address = Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .find((a) => !a.internal && a.family === 'IPv4');
  if (!address) throw new Error('this host has no IPv4 address but loopback');
  return address.address;
}

/** SSRF: only global unicast addresses of other hosts, at creation and again at each delivery. */
describe('webhook URLs that are not global unicast, or name the host itself', () => {
  let app: TestApp;
  let db: Database;

  beforeAll(async () => {
    app = await startTestApp({ env: { WEBHOOK_POLL_MS: '50' } });
    db = app.app.get(DATABASE);
  });

  afterAll(() => app?.close());

  it.each([
    ['TEST-NET-1', 'http://192.0.2.10/hooks', '192.0.2.10, a special-purpose address (reserved)'],
    ['TEST-NET-2', 'http://198.51.100.10/hooks', '198.51.100.10, a special-purpose address (reserved)'],
    ['TEST-NET-3', 'https://203.0.113.10/hooks', '203.0.113.10, a special-purpose address (reserved)'],
    ['benchmarking', 'http://198.18.0.1/hooks', '198.18.0.1, a special-purpose address (reserved)'],
    ['CGNAT', 'http://100.64.0.1/hooks', '100.64.0.1, a special-purpose address (carrierGradeNat)'],
    ['multicast', 'http://224.0.0.251/hooks', '224.0.0.251, a special-purpose address (multicast)'],
    ['reserved', 'http://240.0.0.1/hooks', '240.0.0.1, a special-purpose address (reserved)'],
    ['broadcast', 'http://255.255.255.255/hooks', '255.255.255.255, a special-purpose address (broadcast)'],
    ['this network (0.0.0.0/8)', 'http://0.1.2.3/hooks', '0.1.2.3, a special-purpose address (unspecified)'],
    ['IETF protocol assignments', 'http://192.0.0.9/hooks', '192.0.0.9, a special-purpose address (reserved)'],
    ['private', 'http://172.20.0.1/hooks', '172.20.0.1, a special-purpose address (private)'],
    ['IPv6 documentation', 'http://[2001:db8::1]/hooks', '2001:db8::1, a special-purpose address (reserved)'],
    ['IPv6 unique local', 'http://[fd00::1]/hooks', 'fd00::1, a special-purpose address (uniqueLocal)'],
    ['IPv6 link-local', 'http://[fe80::1]/hooks', 'fe80::1, a special-purpose address (linkLocal)'],
    ['NAT64', 'http://[64:ff9b::a00:1]/hooks', '64:ff9b::a00:1, a special-purpose address (rfc6052)'],
    ['6to4', 'http://[2002:a00:1::1]/hooks', '2002:a00:1::1, a special-purpose address (6to4)'],
    ['Teredo', 'http://[2001::1]/hooks', '2001::1, a special-purpose address (teredo)'],
    [
      'IPv4-mapped TEST-NET',
      'http://[::ffff:192.0.2.1]/hooks',
      '::ffff:c000:201, a special-purpose address (reserved)',
    ],
    ['IPv4-compatible', 'http://[::127.0.0.1]/hooks', '::7f00:1, a special-purpose address (outside 2000::/3)'],
  ])('refuses %s', async (_what, url, why) => {
    const before = await db.query('select count(*)::int as n from webhook_endpoints');
    const { status, body } = await call(app, 'POST', '/webhooks/endpoints', {
      key: TEST_ADMIN_KEY,
      body: { url, event_types: ['transaction.voided'] },
    });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'WEBHOOK_URL_REFUSED' });
    expect(body.message).toContain(`is ${why});`);
    expect(await db.query('select count(*)::int as n from webhook_endpoints')).toEqual(before);
  });

  it('refuses the host’s own address, which is not loopback', async () => {
    const own = ownAddress();
    const { status, body } = await call(app, 'POST', '/webhooks/endpoints', {
      key: TEST_ADMIN_KEY,
      body: { url: `http://${own}:${new URL(app.baseUrl).port}/api/v1/health`, event_types: ['transaction.voided'] },
    });
    expect({ status, error: body.error, message: body.message }).toEqual({
      status: 400,
      error: 'WEBHOOK_URL_REFUSED',
      message: `The webhook URL names an address webhooks may not reach (${own} is ${own}, an address of this host); only global unicast addresses of other hosts are allowed, unless WEBHOOK_ALLOW_PRIVATE=true (development)`,
    });
  });

  it('checks the URL again at delivery: one changed to the host’s own address is not sent', async () => {
    const own = ownAddress();
    const { status, body: endpoint } = await call(app, 'POST', '/webhooks/endpoints', {
      key: TEST_ADMIN_KEY,
      body: { url: 'https://93.184.216.34/hooks', event_types: ['transaction.voided'] },
    });
    expect(status).toBe(201);
    // What a rebinding DNS answer, or an edit of the row, would do.
    await db.query('update webhook_endpoints set url = $2 where id = $1', [
      endpoint.id,
      `http://${own}:${new URL(app.baseUrl).port}/api/v1/health`,
    ]);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    const key = (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key;
    const sale = await recordSale(app, key, merchantId);
    const voided = await call(app, 'POST', '/transaction/void', {
      key,
      body: { original_transaction_id: sale.id, void_reason: 'pricing_error', voided_by: 'manager-1' },
    });
    expect(voided.status).toBe(201);
    const deliveries = async () =>
      (await call(app, 'GET', `/webhooks/deliveries?endpoint_id=${endpoint.id}`, { key: TEST_ADMIN_KEY })).body
        .deliveries;
    await waitUntil('the try', async () => (await deliveries())[0]?.attempts === 1);
    expect(await deliveries()).toEqual([
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        last_status_code: null,
        last_error: `not sent: the URL names an address webhooks may not reach (${own} is ${own}, an address of this host); only global unicast addresses of other hosts are allowed, unless WEBHOOK_ALLOW_PRIVATE=true (development)`,
        response_excerpt: null,
      }),
    ]);
  });
});
