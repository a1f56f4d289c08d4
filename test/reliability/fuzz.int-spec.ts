import fc from 'fast-check';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import type { Endpoint } from '../../src/health/route-catalog';
import { call, createTwoMerchants, issueKey, type MerchantFixture } from '../support/auth';
import { recordSale } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

/** Per route, and per kind of input: with about 40 routes, several thousand requests in all. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 120);

/** Field names of the spec's bodies and queries, so generated inputs reach validation and beyond, not only "unknown field". */
const FIELDS = [
  'merchant_id',
  'subtotal_cents',
  'tax_total_cents',
  'payment_method',
  'zip_code',
  'state',
  'county',
  'city',
  'cash_rounding_mode',
  'store_id',
  'terminal_id',
  'cashier_id',
  'is_split_tender',
  'tenders',
  'type',
  'amount_cents',
  'transaction_id',
  'original_transaction_id',
  'reason',
  'override_reason',
  'overridden_total_cents',
  'employee_id',
  'employee_name',
  'refund_amount_cents',
  'amount',
  'tip_id',
  'tip_ids',
  'pool_id',
  'participants',
  'weight',
  'hours',
  'distribution_method',
  'payout_method',
  'export_mode',
  'start_date',
  'end_date',
  'compliance_status',
  'role',
  'environment',
  'name',
  'partner_id',
  'limit',
  'offset',
  'cursor',
  'format',
  'event_type',
  'user_id',
  'from_position',
  'to_position',
  'rounding_mode',
  'effective_date',
];

const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '',
    'cash',
    'card',
    'ebt',
    'mobile',
    '35203',
    'AL',
    '2026-11-21',
    '=1+1',
    'a'.repeat(300),
    '-1',
    '1e308',
    'NaN',
  ),
  // The classes an attack found answering 500 (issue 20): U+0000 and unpaired surrogates anywhere in a string.
  fc.constantFrom('\u0000', 'emp\u0000', '\ud800', 'a\udc00', '\udfff\ud800'),
  fc.constantFrom(-1, 0, 1, 0.5, 1e21, Number.MAX_SAFE_INTEGER, -0),
);
/** Arrays nested past the 32 levels a body may have, up to thousands deep. */
const deeplyNested = fc
  .integer({ min: 30, max: 3000 })
  .map((levels) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`));
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 4 }),
  fc.dictionary(fc.constantFrom(...FIELDS), scalar, { maxKeys: 4 }),
  deeplyNested,
);
const body = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), value, { maxKeys: 12 }),
  fc.jsonValue(),
);
const rawBody = fc.oneof(
  body.map((b) => JSON.stringify(b) ?? 'null'),
  fc.string(),
  fc.constantFrom('{', '{"merchant_id":', '[1,2', '{"__proto__":{"x":1}}', 'null', '"text"', '1e999'),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.constantFrom(
    '',
    '-1',
    '0',
    '1e3',
    'merchant',
    'pos',
    '2026-13-45',
    '1e20',
    '99999999999999999999',
    '9007199254740993',
    '\u0000',
  ),
);
const query = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 10 })), queryValue, {
  maxKeys: 5,
});
const pathParam = fc.oneof(
  fc.string({ minLength: 1, maxLength: 80 }),
  fc.constantFrom(
    'TXN-2026-01-01-00000000',
    '..',
    '%',
    'AL',
    '00000',
    'a/b',
    ' ',
    '\u0000',
    'a'.repeat(101),
    'a'.repeat(5000),
  ),
);
const headers = fc.record({
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    '',
  ),
  idempotencyKey: fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
});

/**
 * Generated bodies, headers, query strings and path parameters at every route the router serves,
 * with keys of every role so inputs get past authentication: never a 5xx, every error a plain
 * `{error, message}` without a stack trace, and a rejected request appends nothing to the log.
 */
describe('fuzzing every endpoint', () => {
  let app: TestApp;
  let store: EventStore;
  let keys: { role: string; key: string }[];
  let merchant: MerchantFixture;
  let saleId: string;
  const stats = { requests: 0, byStatus: new Map<number, number>() };
  /** Request ids of the answers >= 400: no event in the log may name one as its cause. */
  const rejected = new Set<string>();

  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_SANDBOX: '100000000', RATE_LIMIT_PRODUCTION: '100000000' } });
    store = app.app.get(EventStore);
    ({ a: merchant } = await createTwoMerchants(app));
    saleId = (await recordSale(app, merchant.key, merchant.merchantId)).id;
    keys = [
      { role: 'merchant', key: merchant.key },
      { role: 'partner', key: merchant.partnerKey },
      { role: 'auditor', key: (await issueKey(app, { role: 'auditor' })).key },
      { role: 'admin', key: TEST_ADMIN_KEY },
    ];
  }, 60_000);

  afterAll(async () => {
    console.log(
      `fuzz: ${stats.requests} requests, statuses ${JSON.stringify(Object.fromEntries([...stats.byStatus].sort()))}`,
    );
    await app?.close();
  });

  async function send(
    method: string,
    path: string,
    options: { key: string; headers: Record<string, string>; body?: string },
  ) {
    const requestId = `fuzz-${stats.requests}`;
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { ...options.headers, 'x-api-key': options.key, 'x-request-id': requestId },
      body: options.body,
    });
    const text = await response.text();
    stats.requests += 1;
    stats.byStatus.set(response.status, (stats.byStatus.get(response.status) ?? 0) + 1);
    const context = `${method} ${path} ${options.body?.slice(0, 300) ?? ''} → ${response.status} ${text.slice(0, 300)}`;
    if (response.status >= 500) throw new Error(`5xx: ${context}`);
    if (/\n\s+at |node_modules|\.ts:\d+/.test(text)) throw new Error(`stack trace in the answer: ${context}`);
    if (response.status >= 400) {
      const parsed = JSON.parse(text);
      if (typeof parsed.error !== 'string' || typeof parsed.message !== 'string')
        throw new Error(`not {error, message}: ${context}`);
      rejected.add(requestId);
    }
  }

  /** The router's own list, relative to /api/v1: a route added later is fuzzed without editing this test. */
  const routes = async (): Promise<Endpoint[]> =>
    (await call(app, 'GET', '/version')).body.endpoints.map((e: Endpoint) => ({
      ...e,
      path: e.path.replace(/^\/api\/v1/, ''),
    }));
  const fill = (path: string, param: string) =>
    path.replace(/\{[^}]+\}/g, (name) =>
      name === '{merchant_id}'
        ? merchant.merchantId
        : name === '{id}' && param === ''
          ? saleId
          : encodeURIComponent(param),
    );

  it('never answers 5xx, a stack trace, or appends on a rejection', async () => {
    const endpoints = (await routes()).filter((e) => e.path !== '/health' && e.path !== '/version');
    expect(endpoints.length).toBeGreaterThan(10);
    for (const endpoint of endpoints) {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...keys),
          pathParam,
          query,
          headers,
          fc.option(rawBody, { nil: undefined }),
          async (key, param, q, h, raw) => {
            const search = new URLSearchParams(Object.entries(q)).toString();
            const requestHeaders: Record<string, string> = {};
            if (h.contentType) requestHeaders['content-type'] = h.contentType;
            if (h.idempotencyKey !== undefined)
              requestHeaders['idempotency-key'] = h.idempotencyKey.replace(/[^\x20-\x7e]/g, '');
            const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
            await send(endpoint.method, `${fill(endpoint.path, param)}${search ? `?${search}` : ''}`, {
              key: key.key,
              headers: requestHeaders,
              body: hasBody ? raw : undefined,
            });
          },
        ),
        { numRuns: RUNS_PER_ROUTE, seed: Number(process.env.FUZZ_SEED ?? 20261121) },
      );
    }
    const caused: string[] = [];
    for (let from = 1; ;) {
      const batch = await store.readAll(from, 1000);
      if (batch.length === 0) break;
      for (const event of batch)
        if (rejected.has(String(event.metadata.correlationId)))
          caused.push(`${event.type} ← ${event.metadata.correlationId}`);
      from = batch[batch.length - 1].position + 1;
    }
    expect(rejected.size).toBeGreaterThan(0);
    expect(caused).toEqual([]);
  }, 600_000);
});
