import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import { Clock } from '../platform/clock';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { ForbiddenError } from '../platform/errors/request.errors';
import type { Principal } from '../platform/identity/principal';
import { newWebhookSecret } from './webhook-signature';
import { checkUrl } from './webhook-url';
import { PLATFORM_ONLY_TYPES, type WebhookEventType } from './webhook-events';
import { WebhookEndpointLimitError, WebhookEndpointNotFoundError, WebhookUrlRefusedError } from './webhooks.errors';

/** After a rotation the old secret keeps signing beside the new one for this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;
const DELIVERY_PAGE = { default: 50, max: 200 } as const;
/** The first key of the two-key advisory lock that makes one owner's endpoints one at a time. */
const ENDPOINT_LIMIT_LOCK = 7_140_503;

export interface EndpointRow {
  id: string;
  url: string;
  event_types: WebhookEventType[];
  description: string | null;
  owner_role: Principal['role'];
  owner_merchant_id: string | null;
  owner_partner_id: string | null;
  environment: string;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  webhook_id: string;
  event_type: string;
  position: string;
  event_time: Date;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  response_excerpt: string | null;
  delivered_at: Date | null;
}

const ENDPOINT_COLUMNS = `id, url, event_types, description, owner_role, owner_merchant_id, owner_partner_id, environment, status,
  disabled_reason, previous_secret_expires_at, created_at`;

/**
 * Webhook endpoints and their deliveries, as their owners see them. An endpoint belongs to whoever
 * made it: a merchant (merchant keys), a partner in one environment (partner keys), auditors, or
 * the platform (admin keys); a key sees and manages its owner's endpoints, an admin key all of
 * them. Another owner's endpoint answers 404, as an unknown id does.
 */
@Injectable()
export class WebhookEndpoints {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async create(
    principal: Principal,
    request: { url: string; event_types: WebhookEventType[]; description?: string },
  ): Promise<{ endpoint: EndpointRow; secret: string }> {
    const platformOnly = request.event_types.filter((type) => PLATFORM_ONLY_TYPES.includes(type));
    if (platformOnly.length > 0 && principal.role !== 'admin' && principal.role !== 'auditor') {
      throw new ForbiddenError(`${platformOnly.join(', ')} is delivered to admin and auditor endpoints only`);
    }
    const checked = await checkUrl(request.url, this.config.webhookAllowPrivate);
    if (checked.refused) throw new WebhookUrlRefusedError(checked.refused);
    const secret = newWebhookSecret();
    const owner = [
      principal.role,
      principal.role === 'merchant' ? principal.merchantId : null,
      principal.role === 'partner' ? principal.partnerId : null,
      principal.environment,
    ];
    const endpoint = await this.db.transaction(async (tx) => {
      // One owner's creations one at a time: two at once could each see room for one more.
      await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [ENDPOINT_LIMIT_LOCK, JSON.stringify(owner)]);
      const [{ count }] = await tx.query<{ count: number }>(
        `select count(*)::int as count from webhook_endpoints where owner_role = $1 and owner_merchant_id is not distinct from $2
           and owner_partner_id is not distinct from $3 and environment = $4`,
        owner,
      );
      if (count >= this.config.webhookMaxEndpoints)
        throw new WebhookEndpointLimitError(this.config.webhookMaxEndpoints);
      // Events after the log's head as of now: an endpoint is not sent the history before it.
      const [made] = await tx.query<EndpointRow>(
        `insert into webhook_endpoints (id, url, event_types, description, owner_role, owner_merchant_id, owner_partner_id, environment,
           created_by_key, secret, status, after_position, created_at)
         select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'enabled', position, $11 from event_store_head
         returning ${ENDPOINT_COLUMNS}`,
        [
          `we_${randomBytes(12).toString('base64url')}`,
          request.url,
          [...new Set(request.event_types)],
          request.description ?? null,
          ...owner,
          principal.keyId,
          secret,
          this.clock.now(),
        ],
      );
      return made;
    });
    return { endpoint, secret };
  }

  async list(principal: Principal): Promise<EndpointRow[]> {
    const { clause, params } = ownedBy(principal, 1);
    return this.db.query<EndpointRow>(
      `select ${ENDPOINT_COLUMNS} from webhook_endpoints where ${clause} order by created_at, id`,
      params,
    );
  }

  async get(principal: Principal, id: string): Promise<EndpointRow> {
    const { clause, params } = ownedBy(principal, 2);
    const [endpoint] = await this.db.query<EndpointRow>(
      `select ${ENDPOINT_COLUMNS} from webhook_endpoints where id = $1 and ${clause}`,
      [id, ...params],
    );
    if (!endpoint) throw new WebhookEndpointNotFoundError(id);
    return endpoint;
  }

  /** Its deliveries go with it, sent or not. */
  async delete(principal: Principal, id: string): Promise<void> {
    const { clause, params } = ownedBy(principal, 2);
    const deleted = await this.db.query(`delete from webhook_endpoints where id = $1 and ${clause} returning id`, [
      id,
      ...params,
    ]);
    if (deleted.length === 0) throw new WebhookEndpointNotFoundError(id);
  }

  /** A new secret, shown once; the current one becomes the previous and keeps signing for ROTATION_OVERLAP_MS. */
  async rotate(principal: Principal, id: string): Promise<{ endpoint: EndpointRow; secret: string }> {
    const { clause, params } = ownedBy(principal, 4);
    const secret = newWebhookSecret();
    const [endpoint] = await this.db.query<EndpointRow>(
      `update webhook_endpoints set previous_secret = secret, secret = $2, previous_secret_expires_at = $3
       where id = $1 and ${clause} returning ${ENDPOINT_COLUMNS}`,
      [id, secret, new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS), ...params],
    );
    if (!endpoint) throw new WebhookEndpointNotFoundError(id);
    return { endpoint, secret };
  }

  /** Newest first, of the endpoints the key sees. */
  async deliveries(
    principal: Principal,
    filter: { endpoint_id?: string; status?: string; limit?: number },
  ): Promise<DeliveryRow[]> {
    if (filter.endpoint_id) await this.get(principal, filter.endpoint_id);
    const { clause, params } = ownedBy(principal, 4, 'e');
    return this.db.query<DeliveryRow>(
      `select d.id, d.endpoint_id, d.webhook_id, d.event_type, d.position, d.event_time, d.status, d.attempts, d.next_attempt_at,
         d.last_attempt_at, d.last_status_code, d.last_error, d.response_excerpt, d.delivered_at
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
       where ($1::text is null or d.endpoint_id = $1) and ($2::text is null or d.status = $2) and ${clause}
       order by d.position desc, d.id desc limit $3`,
      [
        filter.endpoint_id ?? null,
        filter.status ?? null,
        Math.min(filter.limit ?? DELIVERY_PAGE.default, DELIVERY_PAGE.max),
        ...params,
      ],
    );
  }

  /**
   * Sends the endpoint's deliveries from a log position, or of events since an instant, again: each
   * with its own `webhook-id`, so a receiver that has it already can tell. The endpoint is enabled
   * again (a replay is its owner saying the receiver is back). A delivery not yet due for its first
   * try (a rule version's effective date ahead) keeps its date.
   */
  async replay(principal: Principal, id: string, from: { position: number } | { since: Date }): Promise<number> {
    await this.get(principal, id);
    const now = this.clock.now();
    const column = 'position' in from ? 'position' : 'event_time';
    await this.db.query("update webhook_endpoints set status = 'enabled', disabled_reason = null where id = $1", [id]);
    const replayed = await this.db.query(
      `update webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = $3
       where endpoint_id = $1 and ${column} >= $2 and (status <> 'pending' or attempts > 0)
       returning id`,
      [id, 'position' in from ? from.position : from.since, now],
    );
    return replayed.length;
  }
}

/** The endpoints a key owns, as a `where` clause over `alias` with its parameters numbered from `first`. */
function ownedBy(
  principal: Principal,
  first: number,
  alias = 'webhook_endpoints',
): { clause: string; params: unknown[] } {
  switch (principal.role) {
    case 'admin':
      return { clause: 'true', params: [] };
    case 'auditor':
      return { clause: `${alias}.owner_role = 'auditor'`, params: [] };
    case 'merchant':
      return {
        clause: `${alias}.owner_role = 'merchant' and ${alias}.owner_merchant_id = $${first}`,
        params: [principal.merchantId],
      };
    case 'partner':
      return {
        clause: `${alias}.owner_role = 'partner' and ${alias}.owner_partner_id = $${first} and ${alias}.environment = $${first + 1}`,
        params: [principal.partnerId, principal.environment],
      };
  }
}
