import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/config';
import { Clock } from '../../platform/clock';
import { ChainAlarms } from '../../audit/chain-alarms';
import { DATABASE, prepared, type Database } from '../../platform/event-store/sql';
import { EventStore, type StoredEvent } from '../../platform/event-store/event-store.port';
import { outboundEvents, webhookBody, type RiskLevels } from '../webhook-events';
import { webhookSignature } from '../webhook-signature';
import { checkUrl } from '../webhook-url';

/** The waits after the first try and each retry; after the last, the delivery is `failed`. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];
const TIMEOUT_MS = 10_000;
/** A receiver's answer is read this far and no further; this much of it is kept, for the portal. */
const RESPONSE_READ_BYTES = 4096;
const EXCERPT_CHARS = 200;

interface DueDelivery {
  id: string;
  endpoint_id: string;
  webhook_id: string;
  position: string;
  entry_hash: string | null;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  in_flight_until: Date;
}

/** A fixed key (beside the migration and owner locks): claims are made one at a time, so that each counts the tries in flight as they are. */
const CLAIM_LOCK = 7_140_503_231;

/**
 * How long a claimed delivery stays with the process that claimed it: the request's TIMEOUT_MS and the name lookup
 * before it. A process killed mid-try lets it go when this passes, to be sent again with the same
 * `webhook-id`. Real time (the database's clock), not the service's: it is about a process being alive.
 */
const IN_FLIGHT_MS = 30_000;

/**
 * The oldest due delivery that no process holds, whose endpoint and whose endpoint's owner (a
 * merchant, a partner in an environment, the auditors, the admins) are under their bounds of tries
 * in flight, over every service process: one owner's slow receivers take at most its own bound of a
 * process's WEBHOOK_CONCURRENCY, never all of it. Each delivery is its own row, so a failing one
 * holds up none after it.
 */
const CLAIM = prepared(`with in_flight as (
    select d.endpoint_id, e.owner_role, e.owner_merchant_id, e.owner_partner_id, e.environment
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
    where d.status = 'pending' and d.in_flight_until > clock_timestamp()
  ), due as (
    select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
    where d.status = 'pending' and d.next_attempt_at <= $1 and e.status = 'enabled'
      and (d.in_flight_until is null or d.in_flight_until <= clock_timestamp())
      and (select count(*) from in_flight f where f.endpoint_id = d.endpoint_id) < $2
      and (select count(*) from in_flight f where f.owner_role = e.owner_role
             and f.owner_merchant_id is not distinct from e.owner_merchant_id
             and f.owner_partner_id is not distinct from e.owner_partner_id and f.environment = e.environment) < $3
    order by d.next_attempt_at, d.id limit 1 for update of d skip locked
  )
  update webhook_deliveries d set in_flight_until = date_trunc('milliseconds', clock_timestamp() + $4 * interval '1 millisecond')
  from due, webhook_endpoints e
  where d.id = due.id and e.id = d.endpoint_id
  returning d.id, d.endpoint_id, d.webhook_id, d.position, d.entry_hash, d.payload, d.attempts,
    e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, d.in_flight_until`);

interface Outcome {
  statusCode?: number;
  excerpt?: string;
  error?: string;
}

/**
 * Sends the due deliveries, up to `WEBHOOK_CONCURRENCY` at once per process, looking for more every
 * `WEBHOOK_POLL_MS` and whenever one is done. One claim at a time per process, each a short
 * transaction of its own; a try holds no database connection while it waits for the receiver, and
 * its outcome is written after.
 */
@Injectable()
export class WebhookDeliverer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly tries = new Set<Promise<void>>();
  private claiming: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly alarms: ChainAlarms,
    private readonly store: EventStore,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), this.config.webhookPollMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.claiming;
    await Promise.all(this.tries);
  }

  /** Claims due deliveries while tries are fewer than the concurrency, and starts each. */
  wake(): void {
    this.claiming ??= this.claimWhileRoom().finally(() => (this.claiming = undefined));
  }

  /**
   * Resolves once a claim pass started after the call has found nothing more due and every try it
   * started has ended: what was due then has been tried. Lets a caller tell "not sent" from "not
   * sent yet" without waiting on a clock.
   */
  async idle(): Promise<void> {
    await this.settled();
    this.wake();
    await this.settled();
  }

  /** Until no claim pass runs and no try is in flight (an ending try wakes another pass). */
  private async settled(): Promise<void> {
    while (this.claiming || this.tries.size > 0) await Promise.all([this.claiming, ...this.tries]);
  }

  private async claimWhileRoom(): Promise<void> {
    try {
      while (this.timer && this.tries.size < this.config.webhookConcurrency) {
        const now = this.clock.now();
        const due = await this.claim(now);
        if (!due) return;
        const attempt: Promise<void> = this.deliver(due, now)
          .catch((error: unknown) => this.logger.error({ err: error }, 'webhook delivery failed; tried again later'))
          .finally(() => {
            this.tries.delete(attempt);
            this.wake();
          });
        this.tries.add(attempt);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'claiming webhook deliveries failed; trying again on the next poll');
    }
  }

  private async claim(now: Date): Promise<DueDelivery | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
      const [due] = await tx.query<DueDelivery>(CLAIM, [
        now,
        this.config.webhookEndpointConcurrency,
        this.config.webhookOwnerConcurrency,
        IN_FLIGHT_MS,
      ]);
      return due;
    });
  }

  private async deliver(due: DueDelivery, now: Date): Promise<void> {
    const [entry] = await this.store.readAll(Number(due.position), 1);
    const unlogged = notOfTheLog(due, entry);
    if (unlogged) {
      await this.record(due, now, { error: `not sent: ${unlogged}` }, 'failed');
      void this.alarms.raise({
        source: 'webhooks',
        kind: 'delivery-not-in-log',
        position: Number(due.position),
        detail: `webhook delivery ${due.id} (${due.webhook_id}) was not sent: ${unlogged}`,
      });
      return;
    }
    const secrets = [
      due.secret,
      ...(due.previous_secret && due.previous_secret_expires_at! > now ? [due.previous_secret] : []),
    ];
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'crcs-webhooks/1',
      'webhook-id': due.webhook_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignature(secrets, due.webhook_id, timestamp, due.payload),
    };
    const checked = await checkUrl(due.url, this.config.webhookAllowPrivate);
    const outcome =
      checked.refused !== undefined
        ? { error: `not sent: the URL ${checked.refused}` }
        : await post(due.url, headers, due.payload, checked.address);
    const attempts = due.attempts + 1;
    const ok = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const gone = outcome.statusCode === 410;
    await this.record(
      due,
      now,
      outcome,
      ok ? 'delivered' : gone || attempts > RETRY_DELAYS_MS.length ? 'failed' : 'pending',
    );
    if (gone) {
      await this.db.query("update webhook_endpoints set status = 'disabled', disabled_reason = $2 where id = $1", [
        due.endpoint_id,
        `the receiver answered 410 Gone at ${now.toISOString()}`,
      ]);
      this.logger.warn({ endpoint: due.endpoint_id }, 'webhook endpoint disabled: its receiver answered 410 Gone');
    }
  }

  /** Writes the try down and lets the delivery go, unless its hold ran out and another worker has it now. */
  private async record(
    due: DueDelivery,
    now: Date,
    outcome: Outcome,
    status: 'delivered' | 'failed' | 'pending',
  ): Promise<void> {
    const attempts = due.attempts + 1;
    const next = status === 'pending' ? new Date(now.getTime() + RETRY_DELAYS_MS[attempts - 1]) : now;
    await this.db.query(
      prepared(`update webhook_deliveries set status = $2, attempts = $3, next_attempt_at = $4, last_attempt_at = $5, last_status_code = $6,
         last_error = $7, response_excerpt = $8, delivered_at = case when $2 = 'delivered' then $5 else delivered_at end,
         in_flight_until = null
       where id = $1 and in_flight_until = $9`),
      [
        due.id,
        status,
        attempts,
        next,
        now,
        outcome.statusCode ?? null,
        outcome.error ?? null,
        outcome.excerpt ?? null,
        due.in_flight_until,
      ],
    );
  }
}

/**
 * Why a delivery is not what the fan-out made of the log's entry at its position, or undefined when
 * it is: that entry's hash, and its payload and `webhook-id` made again from the entry. A row written
 * into the table by anyone else is not signed. `merchant.risk_level.changed` is made from the
 * merchant's level before, which one entry does not hold: the row's own is taken.
 */
function notOfTheLog(due: DueDelivery, entry: StoredEvent | undefined): string | undefined {
  if (entry?.position !== Number(due.position)) return `the log has no entry at its position ${due.position}`;
  if (due.entry_hash !== entry.hash)
    return `its entry hash ${due.entry_hash ?? 'null'} is not the log's ${entry.hash} at position ${due.position}`;
  const riskLevels: RiskLevels = new Map();
  try {
    const { type, data } = JSON.parse(due.payload) as { type?: unknown; data?: Record<string, unknown> };
    if (type === 'merchant.risk_level.changed' && data)
      riskLevels.set(String(data.merchant_id), String(data.previous_risk_level));
  } catch {
    return 'its payload is not JSON';
  }
  const made = outboundEvents(entry, riskLevels).some(
    (event) => event.webhookId === due.webhook_id && webhookBody(event) === due.payload,
  );
  return made ? undefined : `its webhook-id and payload are not what the log's entry at position ${due.position} makes`;
}

/**
 * One POST, no redirects followed (a 3xx is a failed try), at most TIMEOUT_MS, the answer read to
 * RESPONSE_READ_BYTES. With an `address`, the connection goes to that checked address and makes no
 * name lookup of its own, so a second DNS answer cannot switch it to another (DNS rebinding); the
 * URL's host name still goes in the Host header and TLS's server name.
 */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  address: LookupAddress | undefined,
): Promise<Outcome> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(address && { lookup: pinnedLookup(address) }),
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => {
          response.destroy();
          resolve({
            statusCode: response.statusCode,
            excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS),
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          read += chunk.length;
          if (read >= RESPONSE_READ_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    request.on('error', (error) => resolve({ error: error.message }));
    request.end(body);
  });
}

function pinnedLookup(checked: LookupAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, [checked]);
    callback(null, checked.address, checked.family);
  };
}
