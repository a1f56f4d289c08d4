/**
 * What the service tells receivers, derived from entries of the log and nothing else: each outbound
 * event names the entry's position, and its `data` holds ids and amounts, not whole records (a
 * receiver that wants the record asks the API for it). Pure: the fan-out projector feeds it entries.
 */

import type { ChainAlarmRaisedData } from '../audit/chain-alarm.events';
import type { StoredEvent } from '../platform/event-store/event-store.port';
import type { JurisdictionRuleChanged } from '../jurisdiction/jurisdiction.events';
import type { TipAdjustedData } from '../tips/tip.events';
import type {
  OverrideAppliedData,
  RefundIssuedData,
  TransactionRecordedData,
  TransactionVoidedData,
} from '../transactions/transaction.events';

export const WEBHOOK_EVENT_TYPES = [
  'jurisdiction.rule.scheduled',
  'jurisdiction.rule.effective',
  'merchant.risk_level.changed',
  'transaction.overridden',
  'transaction.voided',
  'transaction.refunded',
  'refund.normalization_failed',
  'tips.wage_theft.flagged',
  'chain.alarm',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Delivered to admin and auditor endpoints only (docs/design.md). */
export const PLATFORM_ONLY_TYPES: readonly WebhookEventType[] = ['chain.alarm'];

/** The log entries the fan-out reads. */
export const SOURCE_EVENT_TYPES = [
  'JurisdictionRuleChanged',
  'TransactionRecorded',
  'OverrideApplied',
  'TransactionVoided',
  'RefundIssued',
  'TipAdjusted',
  'ChainAlarmRaised',
];

/**
 * Who an event concerns: the merchants whose endpoints (and whose partners') receive it. Admin and
 * auditor endpoints receive every event they subscribed to. `jurisdiction`: the merchants with sales
 * in that state, looked up when the entry is fanned out (`null`: every state, the federal rule).
 */
export type Audience = { merchants: string[] } | { jurisdiction: string | null } | 'platform';

export interface OutboundEvent {
  type: WebhookEventType;
  /** Stable across retries and replays: receivers dedupe on it (the `webhook-id` header). */
  webhookId: string;
  /** When it happened: the entry's time, or for `jurisdiction.rule.effective` the version's date. */
  timestamp: string;
  audience: Audience;
  data: Record<string, unknown> & { position: number };
}

/** A merchant's last sale's risk level as the fan-out last saw it, for `merchant.risk_level.changed`. */
export type RiskLevels = Map<string, string>;

/**
 * The outbound events of one entry. `riskLevels` is read and updated for sales: a merchant's level
 * is its latest sale's, and a change from the one before (NONE before its first sale) is an event.
 */
export function outboundEvents(entry: StoredEvent, riskLevels: RiskLevels): OutboundEvent[] {
  const { position, recordedAt } = entry;
  const event = (
    index: number,
    type: WebhookEventType,
    audience: Audience,
    data: Record<string, unknown>,
    timestamp = recordedAt,
  ): OutboundEvent => ({
    type,
    webhookId: `msg_${position}_${index}`,
    timestamp,
    audience,
    data: { position, ...data },
  });
  switch (entry.type) {
    case 'JurisdictionRuleChanged': {
      const { rule } = entry.data as JurisdictionRuleChanged['data'];
      const data = {
        lookup_key: rule.lookup_key,
        jurisdiction_id: rule.jurisdiction_id,
        state: rule.state,
        rounding_mode: rule.rounding_mode,
        effective_date: rule.effective_date,
      };
      const audience = { jurisdiction: rule.state };
      const effectiveAt = rule.effective_date ? `${rule.effective_date}T00:00:00.000Z` : recordedAt;
      // A version already in force is effective now; a later one is announced now and effective on its date.
      if (effectiveAt <= recordedAt) return [event(0, 'jurisdiction.rule.effective', audience, data)];
      return [
        event(0, 'jurisdiction.rule.scheduled', audience, data),
        event(1, 'jurisdiction.rule.effective', audience, data, effectiveAt),
      ];
    }
    case 'TransactionRecorded': {
      const sale = entry.data as TransactionRecordedData;
      const previous = riskLevels.get(sale.merchant_id) ?? 'NONE';
      riskLevels.set(sale.merchant_id, sale.fraud.risk_level);
      if (previous === sale.fraud.risk_level) return [];
      return [
        event(
          0,
          'merchant.risk_level.changed',
          { merchants: [sale.merchant_id] },
          {
            merchant_id: sale.merchant_id,
            transaction_id: sale.transaction_id,
            previous_risk_level: previous,
            risk_level: sale.fraud.risk_level,
            fraud_score: sale.fraud.fraud_score,
          },
        ),
      ];
    }
    case 'OverrideApplied': {
      const override = entry.data as OverrideAppliedData;
      const merchantId = entry.metadata.merchantId ?? null;
      return [
        event(0, 'transaction.overridden', merchantId ? { merchants: [merchantId] } : 'platform', {
          merchant_id: merchantId,
          transaction_id: override.transaction_id,
          override_id: override.override_id,
          previous_cash_total_cents: override.previous_cash_total_cents,
          new_cash_total_cents: override.new_cash_total_cents,
          rounding_delta_cents: override.rounding_delta_cents,
        }),
      ];
    }
    case 'TransactionVoided': {
      const voided = entry.data as TransactionVoidedData;
      return [
        event(
          0,
          'transaction.voided',
          { merchants: [voided.merchant_id] },
          {
            merchant_id: voided.merchant_id,
            transaction_id: voided.transaction_id,
            original_transaction_id: voided.original_transaction_id,
            cash_total_cents: voided.calculation.cash_total_cents,
            void_reason: voided.void_reason,
          },
        ),
      ];
    }
    case 'RefundIssued': {
      const refund = entry.data as RefundIssuedData;
      const audience = { merchants: [refund.merchant_id] };
      const ids = {
        merchant_id: refund.merchant_id,
        transaction_id: refund.transaction_id,
        original_transaction_id: refund.original_transaction_id,
      };
      const refunded = event(0, 'transaction.refunded', audience, {
        ...ids,
        refund_amount_cents: refund.refund_amount_cents,
        cash_total_cents: refund.calculation.cash_total_cents,
        normalization_passed: refund.normalization.passed,
      });
      if (refund.normalization.passed) return [refunded];
      return [
        refunded,
        event(1, 'refund.normalization_failed', audience, {
          ...ids,
          original_rounding_delta_cents: refund.normalization.original_rounding_delta_cents,
          refund_rounding_delta_cents: refund.normalization.refund_rounding_delta_cents,
        }),
      ];
    }
    case 'TipAdjusted': {
      const adjustment = entry.data as TipAdjustedData;
      // The wage-theft report's DOWNWARD_TIP_ADJUSTMENT: the one flag a single entry raises.
      if (adjustment.new_amount_cents >= adjustment.previous_amount_cents) return [];
      return [
        event(
          0,
          'tips.wage_theft.flagged',
          { merchants: [adjustment.merchant_id] },
          {
            flag: 'DOWNWARD_TIP_ADJUSTMENT',
            merchant_id: adjustment.merchant_id,
            employee_id: adjustment.employee_id,
            tip_id: adjustment.tip_id,
            adjustment_id: adjustment.adjustment_id,
            previous_amount_cents: adjustment.previous_amount_cents,
            new_amount_cents: adjustment.new_amount_cents,
          },
        ),
      ];
    }
    case 'ChainAlarmRaised': {
      const alarm = entry.data as unknown as ChainAlarmRaisedData;
      return [
        event(0, 'chain.alarm', 'platform', {
          source: alarm.source,
          kind: alarm.kind,
          alarm_position: alarm.position,
          detail: alarm.detail,
        }),
      ];
    }
    default:
      return [];
  }
}

/** The body as sent, fixed at fan-out so that every retry and replay sends the same bytes. */
export const webhookBody = (event: OutboundEvent): string =>
  JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
