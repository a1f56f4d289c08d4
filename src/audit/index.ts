/** What other features may use of this one: everything else in the folder is its own. */
export { AuditModule } from './audit.module';
export { ChainCheckpointer } from './record-checkpoint/chain-checkpointer';
export type { SignerAlarm } from './record-checkpoint/signing-refused';
export { TreeProofs } from './tree-proofs/tree-proofs';
export { EntryPromises } from './entry-promises';
export { EntryPromiseResponse } from './entry-promise.response.dto';
export { InclusionProofResponse, TreeHeadResponse } from './tree-proofs/tree-proofs.response.dto';
export { MissingPositions } from './verify-hash-chain/verify-hash-chain.response.dto';
export { ChainAlarms } from './chain-alarms';
export { RETRY_AFTER_SECONDS, VerificationGate, VerificationInProgressError } from './verification-gate';
export { CHAIN_TAMPERED_DOC, chainTampered } from './chain-tampered';
export { CHAIN_ALARM_RAISED } from './chain-alarm.events';
export type { ChainAlarm, ChainAlarmRaised, ChainAlarmRaisedData } from './chain-alarm.events';
export { ListAuditLogsQuery } from './list-audit-logs/list-audit-logs.query';
export { VerifyHashChainQuery } from './verify-hash-chain/verify-hash-chain.query';
