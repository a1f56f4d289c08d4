import { Query } from '@nestjs/cqrs';
import { TipAnalyticsResponse } from '../tip-analytics.response.dto';

export class TipAnalyticsQuery extends Query<TipAnalyticsResponse> {
  constructor(
    readonly merchantId: string | null,
    readonly poolLimit: number,
    readonly minPosition?: number,
  ) {
    super();
  }
}
