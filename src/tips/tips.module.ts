import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AuditModule } from '../audit/audit.module';
import { CommandModule } from '../platform/command.module';
import { RecordTipController } from './record-tip/record-tip.controller';
import { AdjustTipController } from './adjust-tip/adjust-tip.controller';
import { PayOutTipsController } from './pay-out-tips/pay-out-tips.controller';
import { CreateTipPoolController } from './create-tip-pool/create-tip-pool.controller';
import { DistributeTipPoolController } from './distribute-tip-pool/distribute-tip-pool.controller';
import { ValidateTipCreditController } from './validate-tip-credit/validate-tip-credit.controller';
import { TipAnalyticsController } from './tip-analytics/tip-analytics.controller';
import { TipWageTheftController } from './tip-wage-theft/tip-wage-theft.controller';
import { AdjustTipHandler } from './adjust-tip/adjust-tip.handler';
import { CreateTipPoolHandler } from './create-tip-pool/create-tip-pool.handler';
import { DistributeTipPoolHandler } from './distribute-tip-pool/distribute-tip-pool.handler';
import { PayOutTipsHandler } from './pay-out-tips/pay-out-tips.handler';
import { RecordTipHandler } from './record-tip/record-tip.handler';
import { TipAnalyticsHandler } from './tip-analytics/tip-analytics.handler';
import { TipMerchants } from './tip-merchants';
import { TipWageTheftHandler } from './tip-wage-theft/tip-wage-theft.handler';
import { ValidateTipCreditHandler } from './validate-tip-credit/validate-tip-credit.handler';

/**
 * Cash and card tips on the merchant's sales, adjustments, payouts, tip pools, tip-credit checks
 * (FLSA and the state's rule from the seeds), and the tip analytics. Every write is an event in
 * the hash chain; reads come from the tips read model (read-model/), built after the append.
 */
@Module({
  imports: [AuthModule, CommandModule, AuditModule],
  controllers: [
    RecordTipController,
    AdjustTipController,
    PayOutTipsController,
    CreateTipPoolController,
    DistributeTipPoolController,
    ValidateTipCreditController,
    TipAnalyticsController,
    TipWageTheftController,
  ],
  providers: [
    TipMerchants,
    RecordTipHandler,
    AdjustTipHandler,
    PayOutTipsHandler,
    CreateTipPoolHandler,
    DistributeTipPoolHandler,
    ValidateTipCreditHandler,
    TipAnalyticsHandler,
    TipWageTheftHandler,
  ],
})
export class TipsModule {}
