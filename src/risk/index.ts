/** What other features may use of this one: everything else in the folder is its own. */
export { merchantRiskProjector } from './read-model/merchant-risk/merchant-risk.projector';
export { overrideReportProjector } from './read-model/override-report/override-report.projector';
export { voidAnalyticsProjector } from './read-model/void-analytics/void-analytics.projector';
