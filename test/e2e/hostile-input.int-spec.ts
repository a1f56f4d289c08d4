import { request as httpRequest } from 'node:http';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { call, createTwoMerchants, issueKey, type MerchantFixture } from '../support/auth';
import { expectConformance } from '../support/openapi';
import { saleBody } from '../support/sales';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const deep = (levels: number): unknown => (levels === 0 ? 'x' : [deep(levels - 1)]);

/**
 * The inputs an attack found that answered 500 (docs/design.md "Idempotency under concurrency and hostile
 * input"): each is now a 400 VALIDATION_ERROR naming the field, and appends nothing. The router's own
 * refusals answer `{error, message}` too. Every answer is checked against the OpenAPI document by `call`.
 */
describe.each(DRIVERS)('hostile input over HTTP on %s', (driver) => {
  let app: TestApp;
  let merchant: MerchantFixture;
  const head = async () => (await app.app.get(EventStore).head()).position;

  beforeAll(async () => {
    app = await startTestApp({ driver });
    ({ a: merchant } = await createTwoMerchants(app));
  }, 60_000);

  afterAll(() => app?.close());

  const refusedWith = async (
    method: string,
    path: string,
    key: string,
    body: unknown,
    field: string,
    message: RegExp,
  ) => {
    const before = await head();
    const answer = await call(app, method, path, { key, body });
    expect({
      status: answer.status,
      error: answer.body.error,
      fields: answer.body.details?.map((d: { field: string }) => d.field),
    }).toEqual({
      status: 400,
      error: 'VALIDATION_ERROR',
      fields: [field],
    });
    expect(answer.body.details[0].messages[0]).toMatch(message);
    expect(await head()).toBe(before);
  };

  it.each([
    ['U+0000', 'emp\u0000', /U\+0000/],
    ['a lone surrogate', '\ud800', /unpaired UTF-16 surrogate/],
    ['a lone low surrogate', 'a\udc00b', /unpaired UTF-16 surrogate/],
  ])('refuses %s in cashier_id of a sale', async (_name, cashierId, message) => {
    await refusedWith(
      'POST',
      '/transaction',
      merchant.key,
      saleBody(merchant.merchantId, { cashier_id: cashierId }),
      'cashier_id',
      message,
    );
  });

  it('takes a real pair of surrogates (an emoji) in cashier_id', async () => {
    const answer = await call(app, 'POST', '/transaction', {
      key: merchant.key,
      body: saleBody(merchant.merchantId, { cashier_id: 'emp-😀' }),
    });
    expect(answer.status).toBe(201);
  });

  it('refuses arrays nested 2,000 deep in a field, before validation walks them', async () => {
    await refusedWith(
      'POST',
      '/transaction',
      merchant.key,
      saleBody(merchant.merchantId, { cashier_id: deep(2000) }),
      `cashier_id${'.0'.repeat(31)}`,
      /nested deeper than 32/,
    );
  });

  it('refuses U+0000 in a path parameter, and appends nothing', async () => {
    await refusedWith('DELETE', '/admin/api-keys/%00', TEST_ADMIN_KEY, undefined, 'id', /U\+0000/);
  });

  it('refuses U+0000 in a query value', async () => {
    await refusedWith('GET', '/transactions?state=A%00', merchant.key, undefined, 'state', /U\+0000/);
  });

  it('refuses offset=99999999999999999999, beyond any position the database holds', async () => {
    await refusedWith(
      'GET',
      '/transactions?offset=99999999999999999999',
      merchant.key,
      undefined,
      'offset',
      /not be greater than 9007199254740991/,
    );
  });

  describe('reads integers in a query strictly, as decimal digits', () => {
    const QUERIES = [
      ['/transactions', 'limit', () => merchant.key],
      ['/admin/merchants', 'offset', () => TEST_ADMIN_KEY],
      ['/admin/audit-logs', 'cursor', () => TEST_ADMIN_KEY],
      ['/admin/audit/inclusion-proof', 'position', () => TEST_ADMIN_KEY],
      ['/admin/verify-hash-chain', 'from_position', () => TEST_ADMIN_KEY],
      ['/analytics/tips', 'limit', () => TEST_ADMIN_KEY],
    ] as const;
    // Each of these once read as a number: 1e2 as 100, 0x10 as 16, " 1" and "+1" as 1, "" as 0.
    const NOT_DECIMAL = ['1e2', '0x10', '%201', '1%20', '%2B1', '1.0', '010', '', '1e20'];

    it.each(QUERIES)('%s?%s= refuses every other spelling of a number (400 naming it)', async (path, field, key) => {
      for (const value of NOT_DECIMAL) {
        const answer = await call(app, 'GET', `${path}?${field}=${value}`, { key: key() });
        expect({
          value,
          status: answer.status,
          error: answer.body.error,
          fields: answer.body.details?.map((d: { field: string }) => d.field),
        }).toEqual({
          value,
          status: 400,
          error: 'VALIDATION_ERROR',
          fields: [field],
        });
        expect(answer.body.details[0].messages).toContain(`${field} must be an integer in decimal digits`);
      }
    });

    it('takes plain decimal digits', async () => {
      expect((await call(app, 'GET', '/transactions?limit=10&offset=0', { key: merchant.key })).body).toMatchObject({
        limit: 10,
        offset: 0,
      });
      expect((await call(app, 'GET', '/admin/audit-logs?cursor=1&limit=2', { key: TEST_ADMIN_KEY })).status).toBe(200);
    });
  });

  describe('a GET or DELETE with a body', () => {
    /** fetch() refuses to send a GET with a body; a client written by hand does not. */
    const withBody = (method: string, path: string, key: string, body: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Headers; body: unknown }>((resolve, reject) => {
        const request = httpRequest(
          `${app.baseUrl}${path}`,
          { method, headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers } },
          (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            response.on('end', () => {
              const answerHeaders = new Headers(
                Object.entries(response.headers).map(([name, value]) => [name, String(value)] as [string, string]),
              );
              resolve({ status: response.statusCode!, headers: answerHeaders, body: JSON.parse(text) });
            });
          },
        );
        request.on('error', reject);
        request.end(body);
      });

    it.each([
      ['GET', '/transactions?limit=5', 'content-length'],
      ['GET', '/health', 'content-length'],
      ['GET', '/admin/merchants', 'transfer-encoding'],
    ])(
      '%s %s with a body (%s) is a 400 BODY_NOT_ALLOWED, not an answer that ignores it',
      async (method, path, framing) => {
        const key = path.startsWith('/admin') ? TEST_ADMIN_KEY : merchant.key;
        const body = JSON.stringify({ merchant_id: merchant.merchantId });
        const answer = await withBody(method, path, key, body, {
          [framing]: framing === 'transfer-encoding' ? 'chunked' : String(Buffer.byteLength(body)),
        });
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 400,
          body: {
            error: 'BODY_NOT_ALLOWED',
            message: `A ${method} request takes no body; send its parameters in the path and query string`,
          },
        });
        await expectConformance(app.baseUrl, method, path, answer);
      },
    );

    it('refuses a DELETE with a body, and revokes nothing', async () => {
      const issued = await issueKey(app, { role: 'auditor' });
      const answer = await withBody('DELETE', `/admin/api-keys/${issued.api_key.id}`, TEST_ADMIN_KEY, '{}', {
        'content-length': '2',
      });
      expect([answer.status, (answer.body as { error: string }).error]).toEqual([400, 'BODY_NOT_ALLOWED']);
      await expectConformance(app.baseUrl, 'DELETE', `/admin/api-keys/${issued.api_key.id}`, answer);
      expect((await call(app, 'GET', '/admin/audit-logs?limit=1', { key: issued.key })).status).toBe(200);
    });

    it('takes a GET with an empty body as one without', async () => {
      expect((await withBody('GET', '/transactions?limit=5', merchant.key, '', { 'content-length': '0' })).status).toBe(
        200,
      );
    });
  });

  it('answers a path parameter over 100 characters with 414 URI_TOO_LONG and the request id', async () => {
    const answer = await call(app, 'GET', `/transaction/${'a'.repeat(101)}`, { key: merchant.key });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 414,
      body: { error: 'URI_TOO_LONG', message: 'A path segment is over 100 characters' },
    });
    expect(answer.headers.get('x-request-id')).toEqual(expect.any(String));
  });

  it('answers a path that is not a valid URL with 400 MALFORMED_REQUEST', async () => {
    const answer = await call(app, 'GET', '/transaction/%E0%A4%A', { key: merchant.key });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { error: 'MALFORMED_REQUEST', message: 'The request path is not a valid URL' },
    });
  });
});
