import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, type Sql } from '../../platform/event-store/sql';
import type { Projector } from '../../platform/projections/projector';
import { merchantsProjector } from '../../merchants/read-model/merchants.projector';
import { transactionListProjector } from '../../transactions/read-model/transaction-list.projector';
import {
  outboundEvents,
  SOURCE_EVENT_TYPES,
  webhookBody,
  type OutboundEvent,
  type RiskLevels,
} from '../webhook-events';

interface Subscriber {
  id: string;
  event_types: string[];
  owner_role: string;
  owner_merchant_id: string | null;
  owner_partner_id: string | null;
  environment: string;
  after_position: string;
}

/**
 * The log is the outbox: this async projector reads it from its checkpoint and writes a delivery
 * row per endpoint and outbound event, in the same transaction as the checkpoint, so that an event
 * is fanned out once however many service processes run (they queue on the checkpoint row) and
 * none is lost to a crash (the batch and its checkpoint commit together or not at all). A row is
 * keyed by endpoint and `webhook-id`: a batch fanned out again (a rebuild) adds nothing. An endpoint
 * receives the events after the log's head when it was made. `rm_webhook_risk_levels` holds each
 * merchant's last sale's risk level, from which `merchant.risk_level.changed` follows.
 */
export const webhookFanOutProjector: Projector = {
  name: 'webhook-fan-out',
  version: 1,
  handles: SOURCE_EVENT_TYPES,
  // A delivery's audience: the merchants, and for a rule change those with sales in its state.
  reads: [merchantsProjector.name, transactionListProjector.name],

  async reset(tx: Sql): Promise<void> {
    await tx.query('drop table if exists rm_webhook_risk_levels');
    await tx.query(
      'create table rm_webhook_risk_levels (merchant_id text primary key, risk_level text not null, last_position bigint not null)',
    );
  },

  async apply(events: readonly StoredEvent[], tx: Sql): Promise<void> {
    const sales = events.filter((event) => event.type === 'TransactionRecorded');
    const merchants = [...new Set(sales.map((event) => String(event.data.merchant_id)))];
    const known = await tx.query<{ merchant_id: string; risk_level: string }>(
      'select merchant_id, risk_level from rm_webhook_risk_levels where merchant_id = any($1)',
      [merchants],
    );
    const riskLevels: RiskLevels = new Map(known.map((row) => [row.merchant_id, row.risk_level]));
    const outbound = events.flatMap((event) => outboundEvents(event, riskLevels));
    if (merchants.length > 0) {
      const last = new Map(sales.map((event) => [String(event.data.merchant_id), event.position]));
      const params: unknown[] = [];
      const rows = merchants.map((merchantId) => ({
        merchant_id: merchantId,
        risk_level: riskLevels.get(merchantId),
        last_position: last.get(merchantId),
      }));
      await tx.query(
        `${insertRows('rm_webhook_risk_levels', rows, params)}
         on conflict (merchant_id) do update set risk_level = excluded.risk_level, last_position = excluded.last_position
         where rm_webhook_risk_levels.last_position < excluded.last_position`,
        params,
      );
    }
    if (outbound.length === 0) return;
    const subscribers = await tx.query<Subscriber>(
      `select id, event_types, owner_role, owner_merchant_id, owner_partner_id, environment, after_position
       from webhook_endpoints where status = 'enabled' and event_types && $1`,
      [[...new Set(outbound.map((event) => event.type))]],
    );
    if (subscribers.length === 0) return;
    const audiences = await audienceMerchants(tx, outbound);
    const entryHashes = new Map(events.map((event) => [event.position, event.hash]));
    const rows = outbound.flatMap((event) =>
      subscribers
        .filter(
          (endpoint) =>
            endpoint.event_types.includes(event.type) && Number(endpoint.after_position) < event.data.position,
        )
        .filter((endpoint) => receives(endpoint, audiences.get(event) ?? []))
        .map((endpoint) => ({
          endpoint_id: endpoint.id,
          webhook_id: event.webhookId,
          event_type: event.type,
          position: event.data.position,
          entry_hash: entryHashes.get(event.data.position),
          event_time: event.timestamp,
          payload: webhookBody(event),
          status: 'pending',
          attempts: 0,
          // Due when it happened: `jurisdiction.rule.effective` waits for its date.
          next_attempt_at: event.timestamp,
        })),
    );
    if (rows.length === 0) return;
    const params: unknown[] = [];
    await tx.query(
      `${insertRows('webhook_deliveries', rows, params)} on conflict (endpoint_id, webhook_id) do nothing`,
      params,
    );
  },
};

/** An outbound event's merchants, each with its partner and environment; none for a platform event. */
type AudienceMember = { merchant_id: string; partner_id: string | null; environment: string };

async function audienceMerchants(tx: Sql, outbound: OutboundEvent[]): Promise<Map<OutboundEvent, AudienceMember[]>> {
  const named = [
    ...new Set(
      outbound.flatMap(({ audience }) =>
        typeof audience === 'object' && 'merchants' in audience ? audience.merchants : [],
      ),
    ),
  ];
  const members = await tx.query<AudienceMember>(
    'select merchant_id, partner_id, environment from rm_merchants where merchant_id = any($1)',
    [named],
  );
  const result = new Map<OutboundEvent, AudienceMember[]>();
  for (const event of outbound) {
    const { audience } = event;
    if (audience === 'platform') continue;
    if ('merchants' in audience) {
      result.set(
        event,
        members.filter((member) => audience.merchants.includes(member.merchant_id)),
      );
      continue;
    }
    // The merchants with sales in the rule's state: those a change of its rule concerns.
    const concerned = await tx.query<AudienceMember>(
      `select merchant_id, partner_id, environment from rm_merchants m
       where exists (select 1 from rm_transactions t where t.merchant_id = m.merchant_id and ($1::text is null or t.state = $1))`,
      [audience.jurisdiction],
    );
    result.set(event, concerned);
  }
  return result;
}

/** Admin and auditor endpoints receive all they subscribed to; a merchant's its own events, a partner's those of its merchants. */
function receives(endpoint: Subscriber, members: AudienceMember[]): boolean {
  switch (endpoint.owner_role) {
    case 'admin':
    case 'auditor':
      return true;
    case 'merchant':
      return members.some((member) => member.merchant_id === endpoint.owner_merchant_id);
    case 'partner':
      return members.some(
        (member) => member.partner_id === endpoint.owner_partner_id && member.environment === endpoint.environment,
      );
    default:
      return false;
  }
}
