import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { QueryInteger } from '../../platform/query-integer';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

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
