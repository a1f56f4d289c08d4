import { Query } from '@nestjs/cqrs';
import type { Environment } from '../../auth/principal';
import type { PageRequest } from '../../common/page.request.dto';
import type { FraudSignal, RiskLevel } from '../fraud-signals';

export interface RankedMerchant {
  /** 1 for the riskiest merchant. */
  rank: number;
  merchant_id: string;
  name: string;
  environment: Environment;
  fraud_score: number;
  risk_level: RiskLevel;
  signals: FraudSignal[];
  sales: number;
}

export interface GetFraudOverviewResponse {
  as_of_position: number;
  /** Over every merchant, whatever the page. */
  summary: { merchant_count: number; by_level: Record<RiskLevel, number>; mean_score: number | null; p90_score: number | null };
  merchants: RankedMerchant[];
  total: number;
  limit: number;
  offset: number;
}

export class GetFraudOverviewQuery extends Query<GetFraudOverviewResponse> {
  constructor(readonly page: PageRequest) {
    super();
  }
}
