import { BOOTSTRAP_ADMIN_KEY_ID } from '../../src/auth/admin-key-bootstrap';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { WhoAmIController, call, issueKey, onboardMerchant, revokeKey } from '../support/auth';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { createTestDatabase, DRIVERS, type Driver, type TestDatabase } from '../support/test-database';

const BOOTSTRAP_LINE =
  /^BOOTSTRAP ADMIN API KEY \(id key_bootstrap_admin\), shown once and never again; store it now: (svc_[0-9A-Za-z]{32})\n$/;

/** What the service prints on stdout about a bootstrap key while `fn` runs (other output passes through). */
async function bootstrapLines(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((
    chunk: string | Uint8Array,
    ...rest: never[]
  ) => {
    if (String(chunk).includes('BOOTSTRAP ADMIN API KEY')) {
      lines.push(String(chunk));
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof process.stdout.write);
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

/** Storage that outlives one app: a database on the driver's server, as a restart would find it. */
async function persistentStorage(driver: Driver): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  // Empty, as a first start finds it: the instances that start together migrate it together too.
  const db: TestDatabase = await createTestDatabase(driver, { empty: true });
  return { env: { DATABASE_URL: db.url }, drop: () => db.drop() };
}

/** The keys issued in the log (the rules imported at the first start come before them). */
const keysIssued = async (app: TestApp) => {
  const store = app.app.get(EventStore);
  const events = await store.readAll(1, (await store.head()).position);
  return events.filter((event) => event.type === 'ApiKeyIssued').length;
};

describe.each(DRIVERS)('the bootstrap admin key on %s', (driver) => {
  let storage: Awaited<ReturnType<typeof persistentStorage>>;
  const start = (env: Record<string, string>) =>
    startTestApp({ driver, controllers: [WhoAmIController], env: { ...storage.env, ...env } });

  beforeEach(async () => {
    storage = await persistentStorage(driver);
  });

  afterEach(() => storage.drop());

  it('is issued and printed once on the first start without ADMIN_API_KEY, and never again', async () => {
    let app: TestApp | undefined;
    const first = await bootstrapLines(async () => {
      app = await start({ ADMIN_API_KEY: '' });
    });
    expect(first).toHaveLength(1);
    const [, key] = BOOTSTRAP_LINE.exec(first[0])!;
    try {
      const me = await call(app!, 'GET', '/test-only/whoami', { key });
      expect(me.body).toEqual({ keyId: BOOTSTRAP_ADMIN_KEY_ID, role: 'admin', environment: 'production' });
      const [event] = await app!.app.get(EventStore).readStream(`apiKey-${BOOTSTRAP_ADMIN_KEY_ID}`);
      expect(event.type).toBe('ApiKeyIssued');
      expect(event.metadata.actor).toEqual({ keyId: 'system:bootstrap', role: 'admin' });
      expect(JSON.stringify(event)).not.toContain(key);
    } finally {
      await app!.close();
    }

    const again = await bootstrapLines(async () => {
      app = await start({ ADMIN_API_KEY: '' });
    });
    try {
      expect(again).toEqual([]);
      expect((await call(app!, 'GET', '/admin/api-keys', { key })).status).toBe(200);
    } finally {
      await app!.close();
    }
  });

  it('is not issued while ADMIN_API_KEY is set, nor later once an admin key exists', async () => {
    let app: TestApp | undefined;
    const withEnvKey = await bootstrapLines(async () => {
      app = await start({});
    });
    try {
      expect(withEnvKey).toEqual([]);
      expect(await keysIssued(app!)).toBe(0);
      await issueKey(app!, { role: 'admin' });
    } finally {
      await app!.close();
    }
    const withoutEnvKey = await bootstrapLines(async () => {
      app = await start({ ADMIN_API_KEY: '' });
    });
    await app!.close();
    expect(withoutEnvKey).toEqual([]);
  });

  it('is issued once when two instances start together on an empty database', async () => {
    let apps: TestApp[] = [];
    const lines = await bootstrapLines(async () => {
      apps = await Promise.all([start({ ADMIN_API_KEY: '' }), start({ ADMIN_API_KEY: '' })]);
    });
    try {
      expect(lines).toHaveLength(1);
      expect(await keysIssued(apps[0])).toBe(1);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});

describe('revocation across two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await startTestApp({ controllers: [WhoAmIController] });
    second = await startTestApp({
      controllers: [WhoAmIController],
      env: { DATABASE_URL: first.config.databaseUrl! },
    });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('refuses a key on the other instance from the very next request', async () => {
    const merchant = await onboardMerchant(first);
    const { key, api_key: apiKey } = await issueKey(first, { role: 'merchant', merchant_id: merchant.merchant_id });
    expect((await call(second, 'GET', '/test-only/whoami', { key })).status).toBe(200);
    expect((await revokeKey(first, apiKey.id, TEST_ADMIN_KEY)).status).toBe(200);
    expect((await call(second, 'GET', '/test-only/whoami', { key })).status).toBe(401);
  });
});
