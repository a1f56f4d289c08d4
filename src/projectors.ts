import { apiKeysProjector } from './auth';
import { jurisdictionRulesProjector } from './jurisdiction';
import { merchantsProjector } from './merchants';
import type { Projector } from './platform/projections/projector';
import { merchantRiskProjector, overrideReportProjector, voidAnalyticsProjector } from './risk';
import { tipsProjector } from './tips';
import { roundingPoliciesProjector, transactionListProjector } from './transactions';
import { webhookFanOutProjector } from './webhooks';

/** Every read model of the service, each exported by its feature: the store, the async runner and the rebuild script read this list. */
export const PROJECTORS: readonly Projector[] = [
  jurisdictionRulesProjector,
  apiKeysProjector,
  merchantsProjector,
  // Async, and before the webhook fan-out, which reads its rows in the same batch to find a rule change's audience.
  transactionListProjector,
  roundingPoliciesProjector,
  tipsProjector,
  // Async: the merchant risk profiles, void analytics and override report.
  merchantRiskProjector,
  overrideReportProjector,
  voidAnalyticsProjector,
  // Async: the webhook deliveries, written from the log (the log is the outbox).
  webhookFanOutProjector,
];
