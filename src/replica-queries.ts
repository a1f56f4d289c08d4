import { ListAuditLogsQuery, VerifyHashChainQuery } from './audit';
import { ExportTransactionsQuery } from './export';
import type { QueryClass } from './platform/read-replica/query-databases';
import {
  GetFraudOverviewQuery,
  GetRiskProfileQuery,
  OverrideReportQuery,
  VoidAbuseQuery,
  VoidAnalyticsQuery,
} from './risk';
import { TipAnalyticsQuery, TipWageTheftQuery } from './tips';
import { VerifyTransactionsQuery } from './transactions';

/**
 * The queries that read from READ_DATABASE_URL's replica while it is within READ_MAX_LAG_MS of the
 * primary: analytics, exports, the audit log and its verification, which read for long and can show
 * data a moment old (saying so in X-Data-As-Of). Never here: key look-ups, idempotency records,
 * the history a sale is scored on, anything a command reads before it decides.
 */
export const REPLICA_QUERIES: readonly QueryClass[] = [
  VoidAnalyticsQuery,
  VoidAbuseQuery,
  OverrideReportQuery,
  GetFraudOverviewQuery,
  GetRiskProfileQuery,
  TipAnalyticsQuery,
  TipWageTheftQuery,
  ExportTransactionsQuery,
  ListAuditLogsQuery,
  VerifyHashChainQuery,
  VerifyTransactionsQuery,
];
