import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { Clock } from '../../src/platform/clock';
import { redisConnectionName } from '../../src/platform/rate-limit/redis-rate-limit-store';
import { WhoAmIController, call, issueKey, onboardMerchant, type Answer } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { startTestApp, TEST_ADMIN_KEY, type TestApp, type TestAppOptions } from '../support/test-app';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** 12:59:30 UTC: the window ends 30 s later, at 13:00. */
const NEAR_THE_HOUR = new Date('2026-11-21T12:59:30.000Z');
const WINDOW_END_SECONDS = String(Date.parse('2026-11-21T13:00:00.000Z') / 1000);

const whoami = (app: TestApp, key: string) => call(app, 'GET', '/test-only/whoami', { key });
const limits = (answer: Answer) => ({
  status: answer.status,
  limit: answer.headers.get('x-ratelimit-limit'),
  remaining: answer.headers.get('x-ratelimit-remaining'),
  reset: answer.headers.get('x-ratelimit-reset'),
});

function appOptions(clock: FixedClock, env: Record<string, string>): TestAppOptions {
  return {
    controllers: [WhoAmIController],
    override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    env: { RATE_LIMIT_SANDBOX: '3', RATE_LIMIT_PRODUCTION: '8', ...env },
  };
}

describe('rate limits in memory (no REDIS_URL)', () => {
  let testApp: TestApp;
  const clock = new FixedClock(NEAR_THE_HOUR);
  let sandboxKey: string;
  let otherSandboxKey: string;
  let productionKey: string;

  beforeAll(async () => {
    testApp = await startTestApp(appOptions(clock, {}));
    const merchant = await onboardMerchant(testApp, { environment: 'sandbox' });
    sandboxKey = (await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id })).key;
    otherSandboxKey = (await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id })).key;
    productionKey = (await issueKey(testApp, { role: 'auditor' })).key;
  });

  afterAll(() => testApp?.close());

  it('counts down a sandbox key’s hourly budget in the headers, then answers 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await whoami(testApp, sandboxKey));
    expect(answers.map(limits)).toEqual([
      { status: 200, limit: '3', remaining: '2', reset: WINDOW_END_SECONDS },
      { status: 200, limit: '3', remaining: '1', reset: WINDOW_END_SECONDS },
      { status: 200, limit: '3', remaining: '0', reset: WINDOW_END_SECONDS },
      { status: 429, limit: '3', remaining: '0', reset: WINDOW_END_SECONDS },
      { status: 429, limit: '3', remaining: '0', reset: WINDOW_END_SECONDS },
    ]);
    expect(answers[3].body).toEqual({
      error: 'RATE_LIMIT_EXCEEDED',
      message: 'Rate limit of 3 requests per hour exceeded for this API key',
    });
    expect(answers[3].headers.get('retry-after')).toBe('30');
    expect(answers[0].headers.get('retry-after')).toBeNull();
  });

  it('keeps one budget per key', async () => {
    expect(limits(await whoami(testApp, otherSandboxKey))).toMatchObject({ status: 200, remaining: '2' });
  });

  it('gives production keys (and admin and auditor keys, production by default) the production limit', async () => {
    expect(limits(await whoami(testApp, productionKey))).toMatchObject({ status: 200, limit: '8', remaining: '7' });
    expect(limits(await whoami(testApp, TEST_ADMIN_KEY))).toMatchObject({ status: 200, limit: '8' });
  });

  it('starts a fresh budget with the next hour', async () => {
    clock.advance(30_000);
    const next = limits(await whoami(testApp, sandboxKey));
    expect(next).toEqual({ status: 200, limit: '3', remaining: '2', reset: String(Number(WINDOW_END_SECONDS) + 3600) });
    clock.advance(-30_000);
  });

  it('puts no rate-limit headers on open routes', async () => {
    const health = await call(testApp, 'GET', '/health');
    expect(health.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('rate limits in Redis, shared by two service instances', () => {
  const prefix = `crcs-test-${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  const clock = new FixedClock(NEAR_THE_HOUR);
  let first: TestApp;
  let second: TestApp;
  const clients = async () =>
    ((await redis.client('LIST')) as string)
      .split('\n')
      .filter((line) => line.includes(` name=${redisConnectionName(prefix)} `)).length;

  beforeAll(async () => {
    await redis.connect();
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PRODUCTION: '5' };
    first = await startTestApp(appOptions(clock, env));
    // The second instance shares the first one's database, as two processes of one deployment do.
    second = await startTestApp(appOptions(clock, { ...env, DATABASE_URL: first.config.databaseUrl! }));
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('spends one budget across both instances', async () => {
    // ADMIN_API_KEY is the same key on both instances, whatever their databases.
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await whoami(i % 2 === 0 ? first : second, TEST_ADMIN_KEY));
    expect(answers.map(limits)).toEqual([
      { status: 200, limit: '5', remaining: '4', reset: WINDOW_END_SECONDS },
      { status: 200, limit: '5', remaining: '3', reset: WINDOW_END_SECONDS },
      { status: 200, limit: '5', remaining: '2', reset: WINDOW_END_SECONDS },
      { status: 200, limit: '5', remaining: '1', reset: WINDOW_END_SECONDS },
      { status: 200, limit: '5', remaining: '0', reset: WINDOW_END_SECONDS },
      { status: 429, limit: '5', remaining: '0', reset: WINDOW_END_SECONDS },
      { status: 429, limit: '5', remaining: '0', reset: WINDOW_END_SECONDS },
    ]);
    expect(answers[5].headers.get('retry-after')).toBe('30');
    expect(answers[6].body.error).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('keeps the counters under the configured prefix, expiring after the window', async () => {
    const keys = await redis.keys(`${prefix}*`);
    expect(keys).toEqual([`${prefix}ratelimit:env:ADMIN_API_KEY:${Date.parse('2026-11-21T12:00:00.000Z')}`]);
    expect(await redis.get(keys[0])).toBe('7');
    const ttl = await redis.pttl(keys[0]);
    // 30 s of the window plus a minute of grace for clock skew between instances.
    expect(ttl).toBeGreaterThan(80_000);
    expect(ttl).toBeLessThanOrEqual(90_000);
  });

  it('holds each instance to one Redis connection, closed when the instance shuts down', async () => {
    expect(await clients()).toBe(2);
    const third = await startTestApp(appOptions(clock, { REDIS_URL, REDIS_KEY_PREFIX: prefix }));
    expect(await clients()).toBe(3);
    await third.close();
    expect(await clients()).toBe(2);
  });

  it('shares the budget of an issued key too (one database)', async () => {
    clock.advance(60 * 60_000);
    const merchant = await onboardMerchant(first, { environment: 'sandbox' });
    const { key } = await issueKey(first, { role: 'merchant', merchant_id: merchant.merchant_id });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(limits(await whoami(i % 2 === 0 ? second : first, key)));
    expect(statuses.map(({ status, remaining }) => [status, remaining])).toEqual([
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ]);
    clock.advance(-60 * 60_000);
  });
});

describe('rate limits with Redis unreachable', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Port 1: nothing listens there, so every connection attempt is refused.
    testApp = await startTestApp(
      appOptions(new FixedClock(NEAR_THE_HOUR), { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PRODUCTION: '2' }),
    );
  });

  it('keeps serving (fail open), counting in the instance’s memory, with the headers', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(limits(await whoami(testApp, TEST_ADMIN_KEY)));
    expect(answers).toEqual([
      { status: 200, limit: '2', remaining: '1', reset: WINDOW_END_SECONDS },
      { status: 200, limit: '2', remaining: '0', reset: WINDOW_END_SECONDS },
      { status: 429, limit: '2', remaining: '0', reset: WINDOW_END_SECONDS },
    ]);
  });

  it('shuts down promptly all the same: closing does not wait on Redis, and the port is closed after it', async () => {
    // What counts is that closing ends on its own while Redis refuses every connection; the bound is only far past any machine's pace.
    const closed = testApp.close().then(() => 'closed');
    expect(await Promise.race([closed, sleep(30_000, 'still closing', { ref: false })])).toBe('closed');
    await expect(fetch(`${testApp.baseUrl}/health`)).rejects.toThrow();
  });
});

describe('failed authentications, counted per client address (issue 48)', () => {
  const UNKNOWN_KEY = 'svc_0123456789abcdefghijABCDEFGHIJ01';
  const REFUSED = {
    error: 'RATE_LIMIT_EXCEEDED',
    message:
      'More than 3 failed authentications from this address this hour: every request from it is refused until Retry-After',
  };
  const statusOf = async (answer: Promise<Answer>) => (await answer).status;

  it('refuses an address past its budget in memory, a valid key too, until the hour ends', async () => {
    const clock = new FixedClock(NEAR_THE_HOUR);
    const app = await startTestApp(appOptions(clock, { AUTH_FAILURES_PER_HOUR: '3' }));
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push(await statusOf(whoami(app, i === 0 ? '' : UNKNOWN_KEY)));
      expect(statuses).toEqual([401, 401, 401]);
      const refused = await whoami(app, UNKNOWN_KEY);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 429, body: REFUSED });
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await statusOf(whoami(app, TEST_ADMIN_KEY))).toBe(429);
      clock.advance(30_000);
      expect(await statusOf(whoami(app, TEST_ADMIN_KEY))).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('shares the count through Redis: another instance refuses the address at its first failure from it', async () => {
    const prefix = `crcs-test-${randomBytes(6).toString('hex')}:`;
    const clock = new FixedClock(NEAR_THE_HOUR);
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, AUTH_FAILURES_PER_HOUR: '3' };
    const first = await startTestApp(appOptions(clock, env));
    const second = await startTestApp(appOptions(clock, env));
    const redis = new Redis(REDIS_URL);
    try {
      for (let i = 0; i < 3; i++) expect(await statusOf(whoami(first, UNKNOWN_KEY))).toBe(401);
      // The second instance has seen no failure yet: a valid key passes, an unknown one tips the shared count over.
      expect(await statusOf(whoami(second, TEST_ADMIN_KEY))).toBe(200);
      const refused = await whoami(second, UNKNOWN_KEY);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 429, body: REFUSED });
      expect(await statusOf(whoami(second, TEST_ADMIN_KEY))).toBe(429);
      expect(
        await redis.get(`${prefix}ratelimit:auth-failures:127.0.0.1:${Date.parse('2026-11-21T12:00:00.000Z')}`),
      ).toBe('4');
    } finally {
      await second.close();
      await first.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
