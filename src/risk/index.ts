/** What other features may use of this one: everything else in the folder is its own. */
export { merchantRiskProjector } from './read-model/merchant-risk/merchant-risk.projector';
export { overrideReportProjector } from './read-model/override-report/override-report.projector';
export { voidAnalyticsProjector } from './read-model/void-analytics/void-analytics.projector';
export { GetFraudOverviewQuery } from './get-fraud-overview/get-fraud-overview.query';
export { GetRiskProfileQuery } from './get-risk-profile/get-risk-profile.query';
export { OverrideReportQuery } from './override-report/override-report.query';
export { VoidAbuseQuery } from './void-abuse/void-abuse.query';
export { VoidAnalyticsQuery } from './void-analytics/void-analytics.query';
