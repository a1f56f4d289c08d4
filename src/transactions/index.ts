/** What other features may use of this one: everything else in the folder is its own. */
export { readTransaction } from './read-model/transaction-reads';
export { TRANSACTION_ID_PATTERN } from './transaction-id';
export { historyEntry } from './read-model/transaction-view';
export type { HistoryEntry, OverrideView, TransactionDetail, TransactionView } from './transaction.response.dto';
export { COMPLIANCE_STATUSES, OVERRIDE_REASONS, VOID_REASONS } from './transaction.events';
export type {
  ComplianceStatus,
  OverrideApplied,
  OverrideAppliedData,
  OverrideReason,
  RefundIssuedData,
  TransactionEvent,
  TransactionRecordedData,
  TransactionStatus,
  TransactionType,
  TransactionVoidedData,
  VoidReason,
} from './transaction.events';
export { exportRows } from './read-model/transaction-batches';
export { transactionListProjector } from './read-model/transaction-list.projector';
export { roundingPoliciesProjector } from './read-model/rounding-policies.projector';
export { FraudAssessmentDto, FraudSignalDto } from './fraud-signal.response.dto';
export { EnforcedRuleDto } from './enforced-rule.response.dto';
export { VerifyTransactionsQuery } from './verify-transactions/verify-transactions.query';
