import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parsePrivateKey, isValidKeyName, parseTlogPolicy, type TlogPolicy } from '@crcs/tlog';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Shorter admin keys are too easy to guess for a key that can do everything. */
const MIN_ADMIN_KEY_LENGTH = 16;

/** Shift changes, as hours of the day (UTC), and how close to one a void counts as at it. */
export interface ShiftChanges {
  hours: readonly number[];
  windowMinutes: number;
}

/** Requests per API key per hour, by the key's environment (spec, "Limits"). */
export interface RateLimitsPerHour {
  readonly sandbox: number;
  readonly production: number;
}

/**
 * The service's configuration, read once from the environment at start.
 * The class is also the injection token: inject `AppConfig` by type.
 */
export class AppConfig {
  readonly port: number;
  /** The interface to listen on: an address or a host name; `0.0.0.0`, every IPv4 interface, by default. */
  readonly host: string;
  /** Unset: the service runs its own PostgreSQL server under `dataDir`. */
  readonly databaseUrl?: string;
  readonly dataDir: string;
  /** SEED_DIR: the folder of the seed files the rules are imported from; unset, the project's `seeds/`. */
  readonly seedDir?: string;
  /**
   * A streaming standby of DATABASE_URL's server: the analytics, export, audit-log and verification
   * queries read there while it is within `readMaxLagMs` of the primary. Unset: everything reads the primary.
   */
  readonly readDatabaseUrl?: string;
  /** A standby further behind than this, or unreachable, is not read: its queries go to the primary. */
  readonly readMaxLagMs: number;
  /** Unset: rate-limit counters live in memory. */
  readonly redisUrl?: string;
  /** Put before every Redis key, so that deployments (or test runs) sharing one Redis never share counters. */
  readonly redisKeyPrefix: string;
  readonly rateLimitPerHour: RateLimitsPerHour;
  readonly adminApiKey?: string;
  readonly logLevel: LogLevel;
  /** Void policies (docs/design.md): a sale is voided within this many hours, later it is refunded. */
  readonly voidTimeLimitHours: number;
  /** A cash total above this is never voided. */
  readonly voidAmountThresholdCents: number;
  /** `customer_changed_mind` is a void reason this many minutes after the sale only. */
  readonly voidChangedMindMinutes: number;
  /** docs/design.md "Overrides are bounded": an override or refund moves the cash total at most this far past the price. */
  readonly overrideToleranceCents: number;
  /** Tips are due to the employee this many days after they are recorded (a pay period); later, unpaid ones are flagged. */
  readonly tipPayoutGraceDays: number;
  /** When shifts change (hours of the day, UTC), and how many minutes either side a void counts as at one (void-abuse analysis). */
  readonly shiftChanges: ShiftChanges;
  /** A signed checkpoint is appended once the log has grown this many entries past the last one. */
  readonly checkpointInterval: number;
  /** …or once this many seconds have passed since the last one while the log grew, whichever comes first. */
  readonly checkpointMaxAgeS: number;
  /** The signer re-verifies what it signed at start and then every this many seconds. */
  readonly checkpointReverifyS: number;
  /** Failed authentications (a missing, unknown or revoked key) a client address may make in an hour before it is refused. */
  readonly authFailuresPerHour: number;
  /** Every read model but the transactions' is replayed from the log and compared with the stored one every this many seconds. */
  readonly readModelCheckS: number;
  /** Ed25519. Unset: no checkpoints are written (see docs/adr/0011-audit-log-and-chain-verification.md). */
  readonly checkpointSigningKey?: KeyObject;
  /** Append-only NDJSON file, outside the database, that every signed tree head is also written to; default `<dataDir>/checkpoint-witness.ndjson`. */
  readonly checkpointWitnessFile?: string;
  /**
   * The log's name in its checkpoints and verifier key (c2sp.org/tlog-checkpoint), fixed at the
   * first start and kept in the database: unset, the stored one (or, at the first start,
   * `<hostname>/crcs/<random id>`); set, it must be the stored one.
   */
  readonly logOrigin?: string;
  /** The checkpoint, verifier key and tiles under /log are open to anyone, not only to auditor and admin keys. */
  readonly logPublic: boolean;
  /**
   * LOG_POLICY_FILE, a c2sp.org/tlog-policy file: the witnesses (with their URLs) asked to cosign
   * every checkpoint, and the quorum an auditor's verifier will ask of it. Unset: no witnessing.
   */
  readonly logPolicy?: TlogPolicy;
  /** A witness that did not answer is asked again this many seconds later (and at every new checkpoint). */
  readonly witnessRetryS: number;
  /** A witness of the policy that has not cosigned for this many seconds while a checkpoint waited for it is a chain alarm. */
  readonly witnessAlarmAfterS: number;
  /** Webhooks to addresses that are not global unicast, or are the host's own: refused unless this is set (development and tests). */
  readonly webhookAllowPrivate: boolean;
  /** How often each service process looks for webhook deliveries that are due. */
  readonly webhookPollMs: number;
  /** Deliveries one service process sends at once; none holds a database connection while it waits for the receiver. */
  readonly webhookConcurrency: number;
  /** Deliveries in flight to one endpoint at once, over every service process. */
  readonly webhookEndpointConcurrency: number;
  /** Deliveries in flight to one owner's endpoints (a merchant's, a partner's) at once, over every service process. */
  readonly webhookOwnerConcurrency: number;
  /** Webhook endpoints one owner (a merchant, a partner in an environment, the auditors, the admins) may have. */
  readonly webhookMaxEndpoints: number;

  constructor(values: AppConfig) {
    Object.assign(this, values, { rateLimitPerHour: Object.freeze({ ...values.rateLimitPerHour }) });
    Object.freeze(this);
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates every variable and throws one `ConfigError` naming all the bad ones. An empty value counts as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const problems: string[] = [];
  const read = <T>(name: string, parse: (raw: string) => T, fallback: T, { secret = false } = {}): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    try {
      return parse(raw);
    } catch (problem) {
      // A URL can hold a password: a secret's value never goes into the message.
      const shown = secret ? '' : ` is ${JSON.stringify(raw)} but`;
      problems.push(`${name}${shown} ${(problem as Error).message}`);
      return fallback;
    }
  };

  const config = new AppConfig({
    port: read('PORT', parsePort, 3000),
    host: read('HOST', parseHost, '0.0.0.0'),
    databaseUrl: read('DATABASE_URL', urlWithScheme('postgres', 'postgresql'), undefined, { secret: true }),
    dataDir: read('DATA_DIR', (raw) => raw, './data'),
    seedDir: read('SEED_DIR', (raw) => raw, undefined),
    readDatabaseUrl: read('READ_DATABASE_URL', urlWithScheme('postgres', 'postgresql'), undefined, { secret: true }),
    readMaxLagMs: read('READ_MAX_LAG_MS', parsePositiveInteger, 5000),
    redisUrl: read('REDIS_URL', urlWithScheme('redis', 'rediss'), undefined, { secret: true }),
    redisKeyPrefix: read('REDIS_KEY_PREFIX', parseRedisKeyPrefix, 'crcs:'),
    rateLimitPerHour: {
      sandbox: read('RATE_LIMIT_SANDBOX', parsePositiveInteger, 1000),
      production: read('RATE_LIMIT_PRODUCTION', parsePositiveInteger, 10_000),
    },
    adminApiKey: read('ADMIN_API_KEY', parseAdminKey, undefined, { secret: true }),
    logLevel: read('LOG_LEVEL', parseLogLevel, 'info'),
    voidTimeLimitHours: read('VOID_TIME_LIMIT_HOURS', parsePositiveInteger, 24),
    voidAmountThresholdCents: read('VOID_AMOUNT_THRESHOLD_CENTS', parsePositiveInteger, 100_000),
    voidChangedMindMinutes: read('VOID_CHANGED_MIND_MINUTES', parsePositiveInteger, 30),
    overrideToleranceCents: read('OVERRIDE_TOLERANCE_CENTS', parsePositiveInteger, 4),
    tipPayoutGraceDays: read('TIP_PAYOUT_GRACE_DAYS', parsePositiveInteger, 14),
    shiftChanges: Object.freeze({
      hours: read('SHIFT_CHANGE_HOURS', parseHoursOfDay, Object.freeze([6, 14, 22])),
      windowMinutes: read('SHIFT_CHANGE_WINDOW_MINUTES', parseShiftWindow, 30),
    }),
    checkpointInterval: read('CHECKPOINT_INTERVAL', parsePositiveInteger, 1000),
    checkpointMaxAgeS: read('CHECKPOINT_MAX_AGE_S', parsePositiveInteger, 5),
    checkpointReverifyS: read('CHECKPOINT_REVERIFY_S', parsePositiveInteger, 600),
    authFailuresPerHour: read('AUTH_FAILURES_PER_HOUR', parsePositiveInteger, 1000),
    readModelCheckS: read('READ_MODEL_CHECK_S', parsePositiveInteger, 3600),
    checkpointSigningKey: read('CHECKPOINT_SIGNING_KEY', parseSigningKey, undefined, { secret: true }),
    checkpointWitnessFile: read('CHECKPOINT_WITNESS_FILE', (raw) => raw, undefined),
    logOrigin: read('LOG_ORIGIN', parseLogOrigin, undefined),
    logPublic: read('LOG_PUBLIC', parseBoolean, false),
    logPolicy: read('LOG_POLICY_FILE', (path) => parseTlogPolicy(readFileSync(path, 'utf8')), undefined),
    witnessRetryS: read('WITNESS_RETRY_S', parsePositiveInteger, 30),
    witnessAlarmAfterS: read('WITNESS_ALARM_AFTER_S', parsePositiveInteger, 300),
    webhookAllowPrivate: read('WEBHOOK_ALLOW_PRIVATE', parseBoolean, false),
    webhookPollMs: read('WEBHOOK_POLL_MS', parsePositiveInteger, 500),
    webhookConcurrency: read('WEBHOOK_CONCURRENCY', parsePositiveInteger, 8),
    webhookEndpointConcurrency: read('WEBHOOK_ENDPOINT_CONCURRENCY', parsePositiveInteger, 2),
    webhookOwnerConcurrency: read('WEBHOOK_OWNER_CONCURRENCY', parsePositiveInteger, 4),
    webhookMaxEndpoints: read('WEBHOOK_MAX_ENDPOINTS', parsePositiveInteger, 20),
  });
  // Else one owner's slow receivers could hold every worker of a process, and delay everyone else's deliveries.
  if (config.webhookOwnerConcurrency >= config.webhookConcurrency)
    problems.push(
      `WEBHOOK_OWNER_CONCURRENCY (${config.webhookOwnerConcurrency}) must be below WEBHOOK_CONCURRENCY (${config.webhookConcurrency}), so that one owner's slow receivers cannot hold every worker`,
    );
  // The embedded server listens on a socket of its own folder only: nothing can stream from it.
  if (config.readDatabaseUrl && !config.databaseUrl)
    problems.push('READ_DATABASE_URL needs DATABASE_URL: it names a standby of that server');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function invalid(requirement: string): never {
  throw new Error(requirement);
}

function parsePort(raw: string): number {
  const port = Number(raw);
  return /^\d+$/.test(raw) && port >= 1 && port <= 65535 ? port : invalid('must be an integer from 1 to 65535');
}

function parseHost(raw: string): string {
  const hostName = /^(?=.{1,253}$)[a-z\d]([a-z\d-]{0,61}[a-z\d])?(\.[a-z\d]([a-z\d-]{0,61}[a-z\d])?)*$/i;
  return isIP(raw) !== 0 || hostName.test(raw) ? raw : invalid('must be an IP address or a host name');
}

function parsePositiveInteger(raw: string): number {
  const value = Number(raw);
  return /^\d+$/.test(raw) && value >= 1 && Number.isSafeInteger(value) ? value : invalid('must be a positive integer');
}

/** Comma-separated hours of the day, e.g. "6,14,22": distinct integers from 0 to 23. */
function parseHoursOfDay(raw: string): readonly number[] {
  const parts = raw.split(',').map((part) => part.trim());
  const hours = parts.map(Number);
  const valid =
    parts.every((part) => /^\d{1,2}$/.test(part)) &&
    hours.every((hour) => hour <= 23) &&
    new Set(hours).size === hours.length;
  return valid ? Object.freeze(hours) : invalid('must be distinct hours of the day from 0 to 23, separated by commas');
}

/** Up to 3 hours either side: wider, the windows of three shift changes cover the whole day. */
function parseShiftWindow(raw: string): number {
  const minutes = parsePositiveInteger(raw);
  return minutes <= 180 ? minutes : invalid('must be at most 180 minutes');
}

function parseSigningKey(raw: string): KeyObject {
  try {
    return parsePrivateKey(raw);
  } catch {
    return invalid('must be an Ed25519 private key: PEM, or base64 of its PKCS#8 DER');
  }
}

function parseLogOrigin(raw: string): string {
  return isValidKeyName(raw) && raw.length <= 255
    ? raw
    : invalid(
        'must be a name of up to 255 characters without spaces, plus signs or control characters, such as example.com/crcs/store-12',
      );
}

function parseBoolean(raw: string): boolean {
  return raw === 'true' ? true : raw === 'false' ? false : invalid('must be true or false');
}

function parseRedisKeyPrefix(raw: string): string {
  return /^[\w.:-]{1,64}$/.test(raw) ? raw : invalid('must be 1 to 64 letters, digits or _ . : -');
}

function urlWithScheme(...schemes: string[]): (raw: string) => string {
  const requirement = `must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`;
  return (raw) =>
    URL.canParse(raw) && schemes.includes(new URL(raw).protocol.slice(0, -1)) ? raw : invalid(requirement);
}

function parseAdminKey(raw: string): string {
  return raw.length >= MIN_ADMIN_KEY_LENGTH && !/\s/.test(raw)
    ? raw
    : invalid(`must be at least ${MIN_ADMIN_KEY_LENGTH} characters without whitespace`);
}

function parseLogLevel(raw: string): LogLevel {
  const known = (LOG_LEVELS as readonly string[]).includes(raw);
  return known ? (raw as LogLevel) : invalid(`must be one of ${LOG_LEVELS.join(', ')}`);
}
