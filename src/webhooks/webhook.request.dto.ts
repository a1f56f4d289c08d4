import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { QueryInteger } from '../platform/query-integer';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-events';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export class CreateWebhookEndpointRequest {
  @ApiProperty({
    maxLength: 2000,
    description:
      'An http or https URL; one whose host resolves to a loopback, private, link-local or metadata address is refused',
    example: 'https://pos.example.com/hooks/crcs',
  })
  @IsString()
  @Length(1, 2000)
  url: string;

  @ApiProperty({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    minItems: 1,
    description: '`chain.alarm` for admin and auditor keys only',
    example: ['transaction.voided', 'refund.normalization_failed'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 200, description: 'A label for people', example: 'Back office, store 12' })
  @IsOptional()
  @IsString()
  @Length(0, 200)
  description?: string;
}

export class ListWebhookDeliveriesRequest {
  @ApiPropertyOptional({ description: 'Only this endpoint’s deliveries', example: 'we_3kTn0VJ8cQm1x2Lb' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  endpoint_id?: string;

  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this status', example: 'failed' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: (typeof DELIVERY_STATUSES)[number];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 200,
    default: 50,
    description: 'Deliveries to list, newest first',
    example: 50,
  })
  @IsOptional()
  @QueryInteger()
  @Min(1)
  @Max(200)
  limit?: number;
}

/** Exactly one of the two. */
export class ReplayWebhooksRequest {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Send again the deliveries of the log entries from this position on',
    example: 120,
  })
  @IsOptional()
  // A JSON body says what it means: "1" is a string, refused, as everywhere else in a body.
  @IsInt({ message: 'from_position must be an integer' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  from_position?: number;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Send again the deliveries of the events since this instant',
    example: '2026-11-26T09:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;
}
