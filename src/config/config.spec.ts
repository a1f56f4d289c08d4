import { AppConfig, ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to port 3000, embedded PGlite under ./data, log level info, the spec\'s rate limits', () => {
    expect(loadConfig({})).toEqual(
      new AppConfig({
        port: 3000,
        dataDir: './data',
        redisKeyPrefix: 'crcs:',
        rateLimitPerHour: { sandbox: 1000, production: 10_000 },
        logLevel: 'info',
      }),
    );
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://svc@db:5432/crcs',
      DATA_DIR: '/var/lib/crcs',
      REDIS_URL: 'rediss://cache:6380',
      REDIS_KEY_PREFIX: 'crcs-staging:',
      RATE_LIMIT_SANDBOX: '50',
      RATE_LIMIT_PRODUCTION: '500',
      ADMIN_API_KEY: 'admin-key-0123456789',
      LOG_LEVEL: 'debug',
    });
    expect(config).toEqual({
      port: 8080,
      databaseUrl: 'postgresql://svc@db:5432/crcs',
      dataDir: '/var/lib/crcs',
      redisUrl: 'rediss://cache:6380',
      redisKeyPrefix: 'crcs-staging:',
      rateLimitPerHour: { sandbox: 50, production: 500 },
      adminApiKey: 'admin-key-0123456789',
      logLevel: 'debug',
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.rateLimitPerHour)).toBe(true);
  });

  it.each([['0'], ['-5'], ['1.5'], ['lots']])('rejects RATE_LIMIT_SANDBOX=%j', (limit) => {
    expect(() => loadConfig({ RATE_LIMIT_SANDBOX: limit })).toThrow(/RATE_LIMIT_SANDBOX is .* but must be a positive integer/);
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

  it.each([['mysql://db/crcs'], ['not a url'], ['db:5432']])('rejects DATABASE_URL=%j without echoing it', (url) => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow('DATABASE_URL must be a URL starting with postgres:// or postgresql://');
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'x', REDIS_URL: 'http://cache', ADMIN_API_KEY: 'short', LOG_LEVEL: 'verbose', DATABASE_URL: 'mysql://u:hunter2@db' });
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
