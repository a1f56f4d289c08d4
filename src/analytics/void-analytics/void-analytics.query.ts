import { Query } from '@nestjs/cqrs';
import type { VoidRates } from '../../fraud/void-analysis';
import type { PagedMerchantFilterRequest } from '../analytics-request.dto';

/** One merchant's line of the analytics: its rates without the breakdowns. */
export type MerchantVoidRates = { merchant_id: string } & Omit<VoidRates, 'voids_by_hour' | 'voids_by_reason' | 'shift_change' | 'top_employee'>;

export interface VoidAnalyticsResponse {
  merchant_id: string | null;
  as_of_position: number;
  /** Every merchant (or the one asked for) as one; no employee is named across merchants. */
  totals: VoidRates;
  /** Highest void rate first, a page of them. */
  merchants: MerchantVoidRates[];
  merchant_count: number;
  limit: number;
  offset: number;
}

export class VoidAnalyticsQuery extends Query<VoidAnalyticsResponse> {
  constructor(readonly request: PagedMerchantFilterRequest) {
    super();
  }
}
