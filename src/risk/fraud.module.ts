import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { MerchantsModule } from '../merchants';
import { GetFraudOverviewController } from './get-fraud-overview/get-fraud-overview.controller';
import { GetFraudOverviewHandler } from './get-fraud-overview/get-fraud-overview.handler';
import { GetRiskProfileController } from './get-risk-profile/get-risk-profile.controller';
import { GetRiskProfileHandler } from './get-risk-profile/get-risk-profile.handler';
import { MerchantActivities } from './merchant-activities';

/**
 * Merchant risk profiles and the fraud overview (admin), scored by the pure functions beside this
 * module from the async merchant-risk, override-report and void-analytics read models. The
 * per-sale score (fraud-score.ts) is the transactions module's to call.
 */
@Module({
  imports: [AuthModule, MerchantsModule],
  controllers: [GetRiskProfileController, GetFraudOverviewController],
  providers: [MerchantActivities, GetRiskProfileHandler, GetFraudOverviewHandler],
})
export class FraudModule {}
