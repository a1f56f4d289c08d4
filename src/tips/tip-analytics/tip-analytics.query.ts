import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import { TipAnalytics } from './tip-analytics.response.dto';

export class TipAnalyticsResponse extends TipAnalytics {
  @ApiProperty({ type: 'string', nullable: true, description: 'The merchant asked for; null: every merchant', example: 'm-corner-deli-01' })
  merchant_id: string | null;
}

export class TipAnalyticsQuery extends Query<TipAnalyticsResponse> {
  constructor(
    readonly merchantId: string | null,
    readonly poolLimit: number,
  ) {
    super();
  }
}
