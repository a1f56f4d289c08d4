import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../webhook-events';
import type { DeliveryRow } from '../webhook-endpoints';
import { DELIVERY_STATUSES } from './list-webhook-deliveries.request.dto';

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
