import { ListAuditLogsQuery } from './audit/list-audit-logs/list-audit-logs.query';
import { VerifyHashChainQuery } from './audit/verify-hash-chain/verify-hash-chain.query';
import { ExportTransactionsQuery } from './export/export-transactions/export-transactions.query';
import type { QueryClass } from './platform/read-replica/query-databases';
import { GetFraudOverviewQuery } from './risk/get-fraud-overview/get-fraud-overview.query';
import { GetRiskProfileQuery } from './risk/get-risk-profile/get-risk-profile.query';
import { OverrideReportQuery } from './risk/override-report/override-report.query';
import { VoidAbuseQuery } from './risk/void-abuse/void-abuse.query';
import { VoidAnalyticsQuery } from './risk/void-analytics/void-analytics.query';
import { TipAnalyticsQuery } from './tips/tip-analytics/tip-analytics.query';
import { TipWageTheftQuery } from './tips/tip-wage-theft/tip-wage-theft.query';
import { VerifyTransactionsQuery } from './transactions/verify-transactions/verify-transactions.query';

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
