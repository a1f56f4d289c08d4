import { generateKeyPairSync } from 'node:crypto';
import { AppConfig, ConfigError, loadConfig } from './config';

const signingKey = generateKeyPairSync('ed25519').privateKey;
const signingKeyPem = signingKey.export({ format: 'pem', type: 'pkcs8' }) as string;

describe('loadConfig', () => {
  it("defaults to port 3000 on every IPv4 interface, the embedded server under ./data, log level info, the spec's rate limits", () => {
    expect(loadConfig({})).toEqual(
      new AppConfig({
        port: 3000,
        host: '0.0.0.0',
        dataDir: './data',
        readMaxLagMs: 5000,
        redisKeyPrefix: 'crcs:',
        rateLimitPerHour: { sandbox: 1000, production: 10_000 },
        logLevel: 'info',
        voidTimeLimitHours: 24,
        voidAmountThresholdCents: 100_000,
        voidChangedMindMinutes: 30,
        overrideToleranceCents: 4,
        tipPayoutGraceDays: 14,
        shiftChanges: { hours: [6, 14, 22], windowMinutes: 30 },
        checkpointInterval: 1000,
        checkpointMaxAgeS: 5,
        checkpointReverifyS: 600,
        authFailuresPerHour: 1000,
        readModelCheckS: 3600,
        logPublic: false,
        witnessRetryS: 30,
        witnessAlarmAfterS: 300,
        webhookAllowPrivate: false,
        webhookPollMs: 500,
        webhookConcurrency: 8,
        webhookEndpointConcurrency: 2,
        webhookOwnerConcurrency: 4,
        webhookMaxEndpoints: 20,
      }),
    );
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://svc@db:5432/crcs',
      DATA_DIR: '/var/lib/crcs',
      READ_DATABASE_URL: 'postgresql://svc@db-standby:5432/crcs',
      READ_MAX_LAG_MS: '2000',
      REDIS_URL: 'rediss://cache:6380',
      REDIS_KEY_PREFIX: 'crcs-staging:',
      RATE_LIMIT_SANDBOX: '50',
      RATE_LIMIT_PRODUCTION: '500',
      ADMIN_API_KEY: 'admin-key-0123456789',
      LOG_LEVEL: 'debug',
      VOID_TIME_LIMIT_HOURS: '2',
      VOID_AMOUNT_THRESHOLD_CENTS: '50000',
      VOID_CHANGED_MIND_MINUTES: '5',
      OVERRIDE_TOLERANCE_CENTS: '2',
      TIP_PAYOUT_GRACE_DAYS: '7',
      SHIFT_CHANGE_HOURS: '7, 15,23,0',
      SHIFT_CHANGE_WINDOW_MINUTES: '45',
      CHECKPOINT_INTERVAL: '50',
      CHECKPOINT_MAX_AGE_S: '30',
      CHECKPOINT_REVERIFY_S: '120',
      CHECKPOINT_SIGNING_KEY: signingKeyPem,
      CHECKPOINT_WITNESS_FILE: '/srv/witness/heads.ndjson',
      LOG_ORIGIN: 'rounding.example.com/store-12',
      LOG_PUBLIC: 'true',
      WITNESS_RETRY_S: '5',
      WITNESS_ALARM_AFTER_S: '600',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_CONCURRENCY: '4',
      WEBHOOK_ENDPOINT_CONCURRENCY: '1',
      WEBHOOK_OWNER_CONCURRENCY: '3',
      WEBHOOK_MAX_ENDPOINTS: '5',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgresql://svc@db:5432/crcs',
      dataDir: '/var/lib/crcs',
      readDatabaseUrl: 'postgresql://svc@db-standby:5432/crcs',
      readMaxLagMs: 2000,
      redisUrl: 'rediss://cache:6380',
      redisKeyPrefix: 'crcs-staging:',
      rateLimitPerHour: { sandbox: 50, production: 500 },
      adminApiKey: 'admin-key-0123456789',
      logLevel: 'debug',
      voidTimeLimitHours: 2,
      voidAmountThresholdCents: 50_000,
      voidChangedMindMinutes: 5,
      overrideToleranceCents: 2,
      tipPayoutGraceDays: 7,
      shiftChanges: { hours: [7, 15, 23, 0], windowMinutes: 45 },
      checkpointInterval: 50,
      checkpointMaxAgeS: 30,
      checkpointReverifyS: 120,
      authFailuresPerHour: 1000,
      readModelCheckS: 3600,
      checkpointSigningKey: expect.anything(),
      checkpointWitnessFile: '/srv/witness/heads.ndjson',
      logOrigin: 'rounding.example.com/store-12',
      logPublic: true,
      witnessRetryS: 5,
      witnessAlarmAfterS: 600,
      webhookAllowPrivate: true,
      webhookPollMs: 100,
      webhookConcurrency: 4,
      webhookEndpointConcurrency: 1,
      webhookOwnerConcurrency: 3,
      webhookMaxEndpoints: 5,
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.rateLimitPerHour)).toBe(true);
    expect(Object.isFrozen(config.shiftChanges.hours)).toBe(true);
  });

  it('refuses an owner bound that would let one owner hold every webhook worker', () => {
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY: '4', WEBHOOK_OWNER_CONCURRENCY: '4' })).toThrow(
      "WEBHOOK_OWNER_CONCURRENCY (4) must be below WEBHOOK_CONCURRENCY (4), so that one owner's slow receivers cannot hold every worker",
    );
  });

  it.each([['two words'], ['a+b'], ['tab\there'], ['x'.repeat(256)]])(
    'rejects LOG_ORIGIN=%j, which is no signed-note key name',
    (origin) => {
      expect(() => loadConfig({ LOG_ORIGIN: origin })).toThrow(
        /LOG_ORIGIN is .* but must be a name of up to 255 characters without spaces, plus signs or control characters/,
      );
    },
  );

  it.each([['6,14,24'], ['6,,14'], ['6,6'], ['-1'], ['6.5'], ['noon']])('rejects SHIFT_CHANGE_HOURS=%j', (hours) => {
    expect(() => loadConfig({ SHIFT_CHANGE_HOURS: hours })).toThrow(
      /SHIFT_CHANGE_HOURS is .* but must be distinct hours of the day from 0 to 23/,
    );
  });

  it.each([
    ['0', 'a positive integer'],
    ['181', 'at most 180 minutes'],
  ])('rejects SHIFT_CHANGE_WINDOW_MINUTES=%j', (minutes, rule) => {
    expect(() => loadConfig({ SHIFT_CHANGE_WINDOW_MINUTES: minutes })).toThrow(
      `SHIFT_CHANGE_WINDOW_MINUTES is "${minutes}" but must be ${rule}`,
    );
  });

  it('reads CHECKPOINT_SIGNING_KEY as PEM or as base64 of its PKCS#8 DER', () => {
    const der = signingKey.export({ format: 'der', type: 'pkcs8' });
    for (const value of [signingKeyPem, der.toString('base64')]) {
      const { checkpointSigningKey } = loadConfig({ CHECKPOINT_SIGNING_KEY: value });
      expect(checkpointSigningKey?.export({ format: 'der', type: 'pkcs8' })).toEqual(der);
    }
  });

  it.each([
    ['not a key'],
    [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string],
  ])('rejects a CHECKPOINT_SIGNING_KEY that is no Ed25519 private key, without echoing it', (value) => {
    expect(() => loadConfig({ CHECKPOINT_SIGNING_KEY: value })).toThrow(
      'CHECKPOINT_SIGNING_KEY must be an Ed25519 private key: PEM, or base64 of its PKCS#8 DER',
    );
  });

  it.each([['0'], ['-5'], ['1.5'], ['lots']])('rejects RATE_LIMIT_SANDBOX=%j', (limit) => {
    expect(() => loadConfig({ RATE_LIMIT_SANDBOX: limit })).toThrow(
      /RATE_LIMIT_SANDBOX is .* but must be a positive integer/,
    );
  });

  it('rejects a REDIS_KEY_PREFIX with spaces', () => {
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'a b' })).toThrow(/REDIS_KEY_PREFIX is "a b" but must be/);
  });

  it('takes an empty value as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it.each([['0'], ['65536'], ['80.5'], ['3e3'], ['abc'], [' 80']])('rejects PORT=%j', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(/PORT is .* but must be an integer from 1 to 65535/);
  });

  it.each([['::1'], ['::'], ['10.0.0.7'], ['localhost'], ['pos-gateway.internal']])('takes HOST=%j', (host) => {
    expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it.each([['http://localhost'], ['localhost:3000'], ['300.1.1.1 '], ['-bad-.example']])('rejects HOST=%j', (host) => {
    expect(() => loadConfig({ HOST: host })).toThrow(
      `HOST is ${JSON.stringify(host)} but must be an IP address or a host name`,
    );
  });

  it.each([['mysql://db/crcs'], ['not a url'], ['db:5432']])('rejects DATABASE_URL=%j without echoing it', (url) => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(
      'DATABASE_URL must be a URL starting with postgres:// or postgresql://',
    );
  });

  it('takes READ_DATABASE_URL only beside DATABASE_URL, and never echoes it', () => {
    expect(() => loadConfig({ READ_DATABASE_URL: 'postgres://u:hunter2@standby/crcs' })).toThrow(
      'READ_DATABASE_URL needs DATABASE_URL: it names a standby of that server',
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://db/crcs', READ_DATABASE_URL: 'mysql://u:hunter2@standby' }),
    ).toThrow(/^(?!.*hunter2)[\s\S]*READ_DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\//);
  });

  it.each([['0'], ['-5'], ['1.5'], ['soon']])('rejects READ_MAX_LAG_MS=%j', (lag) => {
    expect(() => loadConfig({ READ_MAX_LAG_MS: lag })).toThrow(
      `READ_MAX_LAG_MS is "${lag}" but must be a positive integer`,
    );
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'x',
        REDIS_URL: 'http://cache',
        ADMIN_API_KEY: 'short',
        LOG_LEVEL: 'verbose',
        DATABASE_URL: 'mysql://u:hunter2@db',
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT is "x" but must be an integer from 1 to 65535',
      'DATABASE_URL must be a URL starting with postgres:// or postgresql://',
      'REDIS_URL must be a URL starting with redis:// or rediss://',
      'ADMIN_API_KEY must be at least 16 characters without whitespace',
      'LOG_LEVEL is "verbose" but must be one of fatal, error, warn, info, debug, trace, silent',
    ]);
    expect((error as ConfigError).message).not.toContain('hunter2');
  });
});
