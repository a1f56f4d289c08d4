import { Query } from '@nestjs/cqrs';
import type { tipAnalytics } from '../../../projections/tips/tip-analytics';

export type TipAnalyticsResponse = { merchant_id: string | null } & Awaited<ReturnType<typeof tipAnalytics>>;

export class TipAnalyticsQuery extends Query<TipAnalyticsResponse> {
  constructor(
    readonly merchantId: string | null,
    readonly poolLimit: number,
  ) {
    super();
  }
}
