import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-events';
import type { DeliveryRow, EndpointRow } from './webhook-endpoints';
import { DELIVERY_STATUSES } from './webhook.request.dto';

export class WebhookEndpointDto {
  @ApiProperty({ example: 'we_3kTn0VJ8cQm1x2Lb' })
  id: string;

  @ApiProperty({ example: 'https://pos.example.com/hooks/crcs' })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['transaction.voided'] })
  event_types: WebhookEventType[];

  @ApiProperty({ type: 'string', nullable: true, example: 'Back office, store 12' })
  description: string | null;

  @ApiProperty({
    enum: ['enabled', 'disabled'],
    description: '`disabled` after the receiver answered 410 Gone; a replay enables it again',
    example: 'enabled',
  })
  status: 'enabled' | 'disabled';

  @ApiProperty({ type: 'string', nullable: true, example: null })
  disabled_reason: string | null;

  @ApiProperty({
    enum: ['admin', 'auditor', 'merchant', 'partner'],
    description:
      'The role of the key that made it: the endpoint belongs to its merchant, partner, the auditors or the platform',
    example: 'merchant',
  })
  owner_role: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'm-corner-deli-01' })
  merchant_id: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Until then the previous secret signs beside the current one (after a rotation)',
    example: null,
  })
  previous_secret_expires_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-26T15:00:00.000Z' })
  created_at: string;
}

export class CreatedWebhookEndpoint extends WebhookEndpointDto {
  @ApiProperty({
    description: 'The signing secret, shown this once (Standard Webhooks `whsec_` form)',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class WebhookEndpointList {
  @ApiProperty({ type: [WebhookEndpointDto] })
  endpoints: WebhookEndpointDto[];
}

export class WebhookDeliveryDto {
  @ApiProperty({ example: 'we_3kTn0VJ8cQm1x2Lb' })
  endpoint_id: string;

  @ApiProperty({ description: 'The `webhook-id` header: the same on every try and replay', example: 'msg_120_0' })
  webhook_id: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, example: 'transaction.voided' })
  event_type: string;

  @ApiProperty({ type: 'integer', description: 'The log entry it comes from', example: 120 })
  position: number;

  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'delivered' })
  status: string;

  @ApiProperty({ type: 'integer', example: 1 })
  attempts: number;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the next try is due; null once the delivery is `delivered` or `failed`',
    example: '2026-11-26T15:00:05.000Z',
  })
  next_attempt_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2026-11-26T15:00:00.000Z' })
  last_attempt_at: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 200 })
  last_status_code: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Why the last try failed without an answer (timeout, refused address)',
    example: null,
  })
  last_error: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The first 200 characters of the last answer',
    example: 'ok',
  })
  response_excerpt: string | null;
}

export class WebhookDeliveryList {
  @ApiProperty({ type: [WebhookDeliveryDto] })
  deliveries: WebhookDeliveryDto[];
}

export class ReplayedWebhooks {
  @ApiProperty({ type: 'integer', description: 'Deliveries queued to be sent again', example: 3 })
  replayed: number;
}

export class RotatedWebhookSecret {
  @ApiProperty({ description: 'The new secret, shown this once', example: 'whsec_9aYz1Jb0aM3tq4Zx2m6QCw8nR5uVdKs7' })
  secret: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'The old secret signs beside the new one until then',
    example: '2026-11-27T15:00:00.000Z',
  })
  previous_secret_expires_at: string;
}

export const toEndpointDto = (row: EndpointRow): WebhookEndpointDto => ({
  id: row.id,
  url: row.url,
  event_types: row.event_types,
  description: row.description,
  status: row.status,
  disabled_reason: row.disabled_reason,
  owner_role: row.owner_role,
  merchant_id: row.owner_merchant_id,
  previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

export const toDeliveryDto = (row: DeliveryRow): WebhookDeliveryDto => ({
  endpoint_id: row.endpoint_id,
  webhook_id: row.webhook_id,
  event_type: row.event_type,
  position: Number(row.position),
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  response_excerpt: row.response_excerpt,
});
