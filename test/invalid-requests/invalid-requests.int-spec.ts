import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { issueKey, onboardMerchant } from '../support/auth';
import { openRequest, readBody } from '../support/service-process';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { FIXTURE, type InvalidRequest } from './harvest';

/** How many requests are in flight at once: the answers do not depend on their order. */
const IN_FLIGHT = 8;

/**
 * Every invalid request the integration suites sent (harvested from them as README.md in this folder
 * says), sent again byte for byte with the same headers and the same kind of key: each must get the
 * same status and the same whole body, `{error, message}` and any `details`, and none may write to the
 * log. So a change to the request pipeline (parsing, validation, serialization) cannot change what a
 * client is told about its bad request without this test failing.
 */
describe('the invalid requests of the suites, replayed', () => {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as InvalidRequest[];
  let app: TestApp;
  let keys: Record<Exclude<InvalidRequest['caller'], 'merchant' | 'unknown'>, string | undefined>;
  /** By merchant id: the key of the merchant of that id, onboarded as it was in the suite. */
  const merchantKeys = new Map<string, string>();

  beforeAll(async () => {
    app = await startTestApp();
    keys = {
      none: undefined,
      'env-admin': TEST_ADMIN_KEY,
      admin: (await issueKey(app, { role: 'admin' })).key,
      partner: (await issueKey(app, { role: 'partner', environment: 'sandbox' })).key,
      auditor: (await issueKey(app, { role: 'auditor' })).key,
    };
    const merchants = new Map(
      fixture.flatMap(({ merchant }) => (merchant ? [[merchant.id, merchant.environment]] : [])),
    );
    for (const [id, environment] of merchants) {
      await onboardMerchant(app, { merchant_id: id, environment });
      merchantKeys.set(id, (await issueKey(app, { role: 'merchant', merchant_id: id })).key);
    }
  }, 60_000);

  afterAll(() => app?.close());

  const send = async (entry: InvalidRequest): Promise<{ status: number; body: unknown }> => {
    const key =
      entry.caller === 'unknown'
        ? entry.apiKey
        : entry.caller === 'merchant'
          ? merchantKeys.get(entry.merchant!.id)
          : keys[entry.caller];
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of entry.headers) headers[name] = name in headers ? [headers[name], value].flat() : value;
    if (key !== undefined) headers['x-api-key'] = key;
    // The path as recorded: a URL would resolve its `..` and `%2e%2e` before sending.
    const { request, response } = openRequest(Number(new URL(app.baseUrl).port), entry.method, entry.url, headers);
    request.end(entry.bodyBase64 !== undefined ? Buffer.from(entry.bodyBase64, 'base64') : entry.body);
    const answer = await response;
    const text = await readBody(answer);
    try {
      return { status: answer.statusCode!, body: JSON.parse(text) };
    } catch {
      return { status: answer.statusCode!, body: text };
    }
  };

  it('answers each with the status and body it had, and writes nothing', async () => {
    const store = app.app.get(EventStore);
    const head = await store.head();
    const departures: string[] = [];
    const pending = [...fixture];
    const worker = async () => {
      for (let entry = pending.shift(); entry; entry = pending.shift()) {
        const got = await send(entry);
        const expected = { status: entry.status, body: entry.answer };
        if (!isDeepStrictEqual(got, expected)) {
          departures.push(
            `${entry.method} ${entry.url} (${entry.caller} key): expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(departures).toEqual([]);
    expect(fixture.length).toBeGreaterThan(0);
    expect(await store.head()).toEqual(head);
  });
});
