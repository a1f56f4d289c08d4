/** What other features may use of this one: everything else in the folder is its own. */
export { tipsProjector } from './read-model/tips.projector';
export { TipAnalyticsQuery } from './tip-analytics/tip-analytics.query';
export { TipWageTheftQuery } from './tip-wage-theft/tip-wage-theft.query';
export type { TipAdjustedData } from './tip.events';
