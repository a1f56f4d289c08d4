import { Query } from '@nestjs/cqrs';
import type { PageRequest } from '../../platform/page.request.dto';
import { GetFraudOverviewResponse } from './get-fraud-overview.response.dto';

export class GetFraudOverviewQuery extends Query<GetFraudOverviewResponse> {
  constructor(readonly page: PageRequest) {
    super();
  }
}
