import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/config';
import { Clock } from '../../platform/clock';
import { DATABASE, prepared, type Database, type Sql } from '../../platform/event-store/sql';
import { webhookSignature } from '../webhook-signature';
import { isPrivateAddress, refusedUrl } from '../webhook-url';

/** DESIGN.md: the waits after the first try and each retry; after the last, the delivery is `failed`. */
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
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * The oldest due delivery no other worker holds, locked for the length of its try: a second worker
 * or service process skips it (SKIP LOCKED), and a process killed mid-try releases it with its
 * connection, to be sent again with the same `webhook-id`. Each delivery is its own row, so a
 * failing one holds up none after it.
 */
const CLAIM =
  prepared(`select d.id, d.endpoint_id, d.webhook_id, d.payload, d.attempts, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at
  from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
  where d.status = 'pending' and d.next_attempt_at <= $1 and e.status = 'enabled'
  order by d.next_attempt_at, d.id limit 1 for update of d skip locked`);

interface Outcome {
  statusCode?: number;
  excerpt?: string;
  error?: string;
}

/** Sends the due deliveries: `WEBHOOK_CONCURRENCY` workers per process, woken every `WEBHOOK_POLL_MS`. */
@Injectable()
export class WebhookDeliverer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly workers = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), this.config.webhookPollMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.workers);
  }

  /** Starts workers up to the concurrency; each sends deliveries until none is due. */
  wake(): void {
    while (this.timer && this.workers.size < this.config.webhookConcurrency) {
      const worker: Promise<void> = this.work().finally(() => this.workers.delete(worker));
      this.workers.add(worker);
    }
  }

  /**
   * Resolves once a pass of workers started after the call has found nothing more due: what was due
   * then has been tried. Lets a caller tell "not sent" from "not sent yet" without waiting on a clock.
   */
  async idle(): Promise<void> {
    await Promise.all(this.workers);
    this.wake();
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    try {
      let sent = true;
      while (this.timer && sent) sent = await this.db.transaction((tx) => this.deliverOne(tx));
    } catch (error) {
      this.logger.error({ err: error }, 'webhook delivery failed; trying again on the next poll');
    }
  }

  private async deliverOne(tx: Sql): Promise<boolean> {
    const now = this.clock.now();
    const [due] = await tx.query<DueDelivery>(CLAIM, [now]);
    if (!due) return false;
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
    const refused = await refusedUrl(due.url, this.config.webhookAllowPrivate);
    const outcome = refused
      ? { error: `not sent: the URL ${refused}` }
      : await post(due.url, headers, due.payload, this.config.webhookAllowPrivate);
    const attempts = due.attempts + 1;
    const ok = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const gone = outcome.statusCode === 410;
    const status = ok ? 'delivered' : gone || attempts > RETRY_DELAYS_MS.length ? 'failed' : 'pending';
    const next = status === 'pending' ? new Date(now.getTime() + RETRY_DELAYS_MS[attempts - 1]) : now;
    await tx.query(
      prepared(`update webhook_deliveries set status = $2, attempts = $3, next_attempt_at = $4, last_attempt_at = $5, last_status_code = $6,
         last_error = $7, response_excerpt = $8, delivered_at = case when $2 = 'delivered' then $5 else delivered_at end where id = $1`),
      [due.id, status, attempts, next, now, outcome.statusCode ?? null, outcome.error ?? null, outcome.excerpt ?? null],
    );
    if (gone) {
      await tx.query("update webhook_endpoints set status = 'disabled', disabled_reason = $2 where id = $1", [
        due.endpoint_id,
        `the receiver answered 410 Gone at ${now.toISOString()}`,
      ]);
      this.logger.warn({ endpoint: due.endpoint_id }, 'webhook endpoint disabled: its receiver answered 410 Gone');
    }
    return true;
  }
}

/**
 * One POST, no redirects followed (a 3xx is a failed try), at most TIMEOUT_MS, the answer read to
 * RESPONSE_READ_BYTES. Unless private addresses are allowed, the connection's own name lookup
 * refuses them too, so a name that resolved to a public address when checked cannot be switched to a
 * private one for the connection (DNS rebinding).
 */
function post(url: string, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<Outcome> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(!allowPrivate && { lookup: publicOnlyLookup }),
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

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find(({ address }) => isPrivateAddress(address));
    if (refused) return callback(new Error(`${hostname} resolves to ${refused.address}, a private address`), '', 0);
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
