import { jurisdictionRulesProjector } from './jurisdiction-rules/jurisdiction-rules.projector';
import { apiKeysProjector } from './api-keys/api-keys.projector';
import { merchantsProjector } from './merchants/merchants.projector';
import { merchantRiskProjector } from './merchant-risk/merchant-risk.projector';
import { overrideReportProjector } from './override-report/override-report.projector';
import type { Projector } from './projector';
import { tipsProjector } from './tips/tips.projector';
import { transactionListProjector } from './transaction-list/transaction-list.projector';
import { voidAnalyticsProjector } from './void-analytics/void-analytics.projector';

/** Every read model of the service, in one place: the store, the async runner and the rebuild script read this list. */
export const PROJECTORS: readonly Projector[] = [
  jurisdictionRulesProjector,
  apiKeysProjector,
  merchantsProjector,
  transactionListProjector,
  tipsProjector,
  // Async: the merchant risk profiles, void analytics and override report.
  merchantRiskProjector,
  overrideReportProjector,
  voidAnalyticsProjector,
];
