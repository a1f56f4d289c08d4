import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook-events';

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
