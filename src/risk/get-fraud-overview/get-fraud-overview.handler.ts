import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { MerchantDirectory } from '../../merchants/merchant-directory';
import { RISK_LEVELS, type RiskLevel } from '../../rules/fraud-signals';
import { MerchantActivities, NO_ACTIVITY } from '../merchant-activities';
import { riskProfile } from '../merchant-score';
import { percentile, round } from '../../rules/statistics';
import { GetFraudOverviewQuery } from './get-fraud-overview.query';
import type { GetFraudOverviewResponse, RankedMerchant } from './get-fraud-overview.response.dto';

/**
 * Every onboarded merchant scored as its risk profile scores it, riskiest first: the levels follow
 * the score, so HIGH and CRITICAL merchants come first. Ties go by merchant id, so the order is stable.
 */
@QueryHandler(GetFraudOverviewQuery)
export class GetFraudOverviewHandler implements IQueryHandler<GetFraudOverviewQuery, GetFraudOverviewResponse> {
  constructor(
    private readonly merchants: MerchantDirectory,
    private readonly activities: MerchantActivities,
    private readonly databases: QueryDatabases,
    private readonly config: AppConfig,
  ) {}

  async execute(query: GetFraudOverviewQuery): Promise<GetFraudOverviewResponse> {
    const { page } = query;
    const { activities, as_of_position: asOfPosition } = await this.activities.read(
      (await this.databases.for(query)).db,
      null,
      page.min_position,
    );
    const scored = (await this.merchants.all()).map((merchant) => {
      const profile = riskProfile(
        merchant.merchantId,
        activities.get(merchant.merchantId) ?? NO_ACTIVITY,
        this.config.shiftChanges,
      );
      return {
        merchant_id: merchant.merchantId,
        name: merchant.name,
        environment: merchant.environment,
        fraud_score: profile.fraud_score,
        risk_level: profile.risk_level,
        signals: profile.signals,
        sales: profile.rounding_analysis.sales,
      };
    });
    const ranked: RankedMerchant[] = scored
      .sort((a, b) => b.fraud_score - a.fraud_score || a.merchant_id.localeCompare(b.merchant_id))
      .map((merchant, i) => ({ rank: i + 1, ...merchant }));
    const scores = ranked.map((merchant) => merchant.fraud_score);
    const byLevel = Object.fromEntries(
      RISK_LEVELS.map((level) => [level, ranked.filter((m) => m.risk_level === level).length]),
    ) as Record<RiskLevel, number>;
    return {
      as_of_position: asOfPosition,
      summary: {
        merchant_count: ranked.length,
        by_level: byLevel,
        mean_score: scores.length === 0 ? null : round(scores.reduce((sum, s) => sum + s, 0) / scores.length, 2),
        p90_score: percentile(scores, 90),
      },
      merchants: ranked.slice(page.offset, page.offset + page.limit),
      total: ranked.length,
      limit: page.limit,
      offset: page.offset,
    };
  }
}
