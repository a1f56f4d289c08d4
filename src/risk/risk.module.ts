import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MerchantsModule } from '../merchants/merchants.module';
import { GetFraudOverviewController } from './get-fraud-overview/get-fraud-overview.controller';
import { GetFraudOverviewHandler } from './get-fraud-overview/get-fraud-overview.handler';
import { GetRiskProfileController } from './get-risk-profile/get-risk-profile.controller';
import { GetRiskProfileHandler } from './get-risk-profile/get-risk-profile.handler';
import { MerchantActivities } from './merchant-activities';
import { OverrideReportController } from './override-report/override-report.controller';
import { OverrideReportHandler } from './override-report/override-report.handler';
import { VoidAbuseController } from './void-abuse/void-abuse.controller';
import { VoidAbuseHandler } from './void-abuse/void-abuse.handler';
import { VoidAnalyticsController } from './void-analytics/void-analytics.controller';
import { VoidAnalyticsHandler } from './void-analytics/void-analytics.handler';

/**
 * Risk and analytics, for admins and auditors: merchant risk profiles and the fraud overview, void
 * analytics, void abuse and the override report, read from the async merchant-risk, override-report
 * and void-analytics read models and scored with the pure rules (rules/fraud-signals.ts). The
 * void-abuse flags are the void signals of the risk score, with their evidence. The per-sale score
 * (rules/fraud-score.ts) is the transactions feature's to call.
 */
@Module({
  imports: [AuthModule, MerchantsModule],
  controllers: [
    GetRiskProfileController,
    GetFraudOverviewController,
    VoidAnalyticsController,
    VoidAbuseController,
    OverrideReportController,
  ],
  providers: [
    MerchantActivities,
    GetRiskProfileHandler,
    GetFraudOverviewHandler,
    VoidAnalyticsHandler,
    VoidAbuseHandler,
    OverrideReportHandler,
  ],
})
export class RiskModule {}
