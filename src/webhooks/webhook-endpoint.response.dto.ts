import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-events';
import type { EndpointRow } from './webhook-endpoints';

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
