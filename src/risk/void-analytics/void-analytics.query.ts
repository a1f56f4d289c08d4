import { Query } from '@nestjs/cqrs';
import type { PagedMerchantFilterRequest } from '../analytics-request.dto';
import { VoidAnalyticsResponse } from './void-analytics.response.dto';

export class VoidAnalyticsQuery extends Query<VoidAnalyticsResponse> {
  constructor(readonly request: PagedMerchantFilterRequest) {
    super();
  }
}
