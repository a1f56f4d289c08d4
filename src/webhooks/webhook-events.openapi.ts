import type { OpenAPIObject } from '@nestjs/swagger';
import type { WebhookEventType } from './webhook-events';

type Schema = Record<string, unknown>;
const id = (description: string, example: string): Schema => ({ type: 'string', description, example });
const cents = (description: string, example: number): Schema => ({ type: 'integer', description, example });
const merchant = id('The merchant', 'm-corner-deli-01');
const sale = id('The sale', 'TXN-2026-11-26-7QK2M9XD');

/** Each event's `data` (beside `position`, the log entry it comes from), as webhook-events.ts builds it. */
const DATA: Record<WebhookEventType, { summary: string; properties: Record<string, Schema> }> = {
  'jurisdiction.rule.scheduled': {
    summary:
      'A rule version was recorded that takes effect on a later date; to admin and auditor endpoints, and to merchants with sales in its state',
    properties: {
      lookup_key: id('The rule’s place', 'US-OR'),
      jurisdiction_id: id('The jurisdiction', 'US-OR'),
      state: { type: ['string', 'null'], description: 'Its state; null for the federal rule', example: 'OR' },
      rounding_mode: id('What it prescribes', 'symmetrical_rounding'),
      effective_date: { type: ['string', 'null'], format: 'date', example: '2027-01-01' },
    },
  },
  'jurisdiction.rule.effective': {
    summary:
      'A rule version took effect (sent on its effective date, 00:00 UTC, or at once when recorded for a date passed)',
    properties: {},
  },
  'merchant.risk_level.changed': {
    summary: 'A merchant’s risk level, that of its latest sale, differs from the one before',
    properties: {
      merchant_id: merchant,
      transaction_id: sale,
      previous_risk_level: { type: 'string', enum: ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'], example: 'NONE' },
      risk_level: { type: 'string', enum: ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'], example: 'HIGH' },
      fraud_score: { type: 'integer', example: 72 },
    },
  },
  'transaction.overridden': {
    summary: 'A sale’s cash total was overridden',
    properties: {
      merchant_id: merchant,
      transaction_id: sale,
      override_id: id('The override', 'OVR-2026-11-26-3MZP8Q1K'),
      previous_cash_total_cents: cents('Before', 1100),
      new_cash_total_cents: cents('After', 1105),
      rounding_delta_cents: cents('The settlement’s new delta', 3),
    },
  },
  'transaction.voided': {
    summary: 'A sale was voided',
    properties: {
      merchant_id: merchant,
      transaction_id: id('The VOID record', 'TXN-2026-11-26-9VD4K2QP'),
      original_transaction_id: sale,
      cash_total_cents: cents('The void’s cash total (negative)', -1100),
      void_reason: id('As sent', 'pricing_error'),
    },
  },
  'transaction.refunded': {
    summary: 'A refund was issued',
    properties: {
      merchant_id: merchant,
      transaction_id: id('The REFUND record', 'TXN-2026-11-26-R3FD8N2M'),
      original_transaction_id: sale,
      refund_amount_cents: cents('As asked', 500),
      cash_total_cents: cents('What was handed back (negative)', -500),
      normalization_passed: { type: 'boolean', example: true },
    },
  },
  'refund.normalization_failed': {
    summary: 'A refund’s rounding moved the same way as its sale’s (the normalization check failed)',
    properties: {
      merchant_id: merchant,
      transaction_id: id('The REFUND record', 'TXN-2026-11-26-R3FD8N2M'),
      original_transaction_id: sale,
      original_rounding_delta_cents: cents('The sale’s', -2),
      refund_rounding_delta_cents: cents('The refund’s', -2),
    },
  },
  'tips.wage_theft.flagged': {
    summary: 'A tip was cut after it was recorded (the wage-theft report’s DOWNWARD_TIP_ADJUSTMENT)',
    properties: {
      flag: { type: 'string', enum: ['DOWNWARD_TIP_ADJUSTMENT'], example: 'DOWNWARD_TIP_ADJUSTMENT' },
      merchant_id: merchant,
      employee_id: id('The employee', 'emp-7'),
      tip_id: id('The tip', 'TIP-2026-11-26-5HT2W9RA'),
      adjustment_id: id('The adjustment', 'ADJ-2026-11-26-8KD3M1XQ'),
      previous_amount_cents: cents('Before', 500),
      new_amount_cents: cents('After', 200),
    },
  },
  'chain.alarm': {
    summary:
      'The log was found not to be what it was (a verification break, a refused signing); to admin and auditor endpoints only',
    properties: {
      source: id('Who found it', 'verification'),
      kind: id('What was found', 'modified'),
      alarm_position: { type: ['integer', 'null'], description: 'Where, when the finder can say', example: 42 },
      detail: id('For people', 'entry 42 does not match its hash; 1 break(s)'),
    },
  },
};
DATA['jurisdiction.rule.effective'].properties = DATA['jurisdiction.rule.scheduled'].properties;

const HEADERS = [
  {
    name: 'webhook-id',
    description: 'The message id, the same on every retry and replay: dedupe on it',
    example: 'msg_120_0',
  },
  {
    name: 'webhook-timestamp',
    description: 'Seconds since the Unix epoch when this try was sent; refuse one far from your clock',
    example: '1795705200',
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, two separated by a space during a secret rotation',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map(({ name, description, example }) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', example },
}));

/**
 * The OpenAPI 3.1 `webhooks` of the document: one per event type, its body `{type, timestamp, data}`
 * with the type's `data`, and the Standard Webhooks headers.
 */
export function withWebhookEvents(document: OpenAPIObject): OpenAPIObject {
  const webhooks = Object.fromEntries(
    Object.entries(DATA).map(([type, { summary, properties }]) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary,
          tags: ['Webhooks'],
          // The service calls the receiver: no key; the signature is what the receiver checks.
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  properties: {
                    type: { type: 'string', const: type },
                    timestamp: { type: 'string', format: 'date-time', description: 'When it happened' },
                    data: {
                      type: 'object',
                      required: ['position', ...Object.keys(properties)],
                      properties: {
                        position: {
                          type: 'integer',
                          description: 'The log entry it comes from: order by it',
                          example: 120,
                        },
                        ...properties,
                      },
                    },
                  },
                },
              },
            },
          },
          responses: {
            '200': {
              description:
                'Any 2xx: received. 410: the endpoint is disabled. Anything else, or no answer in 10 s: tried again',
            },
          },
        },
      },
    ]),
  );
  return { ...document, webhooks } as OpenAPIObject;
}
