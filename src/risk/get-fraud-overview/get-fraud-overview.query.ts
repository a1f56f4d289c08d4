import { Query } from '@nestjs/cqrs';
import type { AnalyticsPageRequest } from '../analytics-request.dto';
import { GetFraudOverviewResponse } from './get-fraud-overview.response.dto';

export class GetFraudOverviewQuery extends Query<GetFraudOverviewResponse> {
  constructor(readonly page: AnalyticsPageRequest) {
    super();
  }
}
