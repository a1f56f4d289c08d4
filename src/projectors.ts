import { apiKeysProjector } from './auth/read-model/api-keys.projector';
import { jurisdictionRulesProjector } from './jurisdiction/read-model/jurisdiction-rules.projector';
import { merchantsProjector } from './merchants/read-model/merchants.projector';
import type { Projector } from './platform/projections/projector';
import { merchantRiskProjector } from './risk/read-model/merchant-risk/merchant-risk.projector';
import { overrideReportProjector } from './risk/read-model/override-report/override-report.projector';
import { voidAnalyticsProjector } from './risk/read-model/void-analytics/void-analytics.projector';
import { tipsProjector } from './tips/read-model/tips.projector';
import { roundingPoliciesProjector } from './transactions/read-model/rounding-policies.projector';
import { transactionListProjector } from './transactions/read-model/transaction-list.projector';
import { webhookFanOutProjector } from './webhooks/fan-out/webhook-fan-out.projector';

/** Every read model of the service, each exported by its feature, each built after the append: the runner and the rebuild script read this list. */
export const PROJECTORS: readonly Projector[] = [
  jurisdictionRulesProjector,
  apiKeysProjector,
  // Before the webhook fan-out, which reads their rows in the same batch to find an event's audience (its `reads`).
  merchantsProjector,
  transactionListProjector,
  roundingPoliciesProjector,
  tipsProjector,
  // The merchant risk profiles, void analytics and override report.
  merchantRiskProjector,
  overrideReportProjector,
  voidAnalyticsProjector,
  // The webhook deliveries, written from the log (the log is the outbox).
  webhookFanOutProjector,
];
