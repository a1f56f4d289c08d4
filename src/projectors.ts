import { jurisdictionRulesProjector } from './jurisdiction/read-model/jurisdiction-rules.projector';
import { apiKeysProjector } from './auth/read-model/api-keys.projector';
import { merchantsProjector } from './merchants/read-model/merchants.projector';
import { merchantRiskProjector } from './risk/read-model/merchant-risk/merchant-risk.projector';
import { overrideReportProjector } from './risk/read-model/override-report/override-report.projector';
import type { Projector } from './platform/projections/projector';
import { tipsProjector } from './tips/read-model/tips.projector';
import { transactionListProjector } from './transactions/read-model/transaction-list.projector';
import { voidAnalyticsProjector } from './risk/read-model/void-analytics/void-analytics.projector';

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
