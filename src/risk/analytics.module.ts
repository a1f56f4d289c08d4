import { Module } from '@nestjs/common';
import { OverrideReportController } from './override-report/override-report.controller';
import { OverrideReportHandler } from './override-report/override-report.handler';
import { VoidAbuseController } from './void-abuse/void-abuse.controller';
import { VoidAbuseHandler } from './void-abuse/void-abuse.handler';
import { VoidAnalyticsController } from './void-analytics/void-analytics.controller';
import { VoidAnalyticsHandler } from './void-analytics/void-analytics.handler';

/**
 * Void analytics, void abuse and the override report: platform views for admins and auditors, read
 * from the async void-analytics and override-report read models. The void-abuse flags are the void
 * signals of the merchant risk score (src/fraud), with their evidence.
 */
@Module({
  controllers: [VoidAnalyticsController, VoidAbuseController, OverrideReportController],
  providers: [VoidAnalyticsHandler, VoidAbuseHandler, OverrideReportHandler],
})
export class AnalyticsModule {}
