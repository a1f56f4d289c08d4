/** What other features may use of this one: everything else in the folder is its own. */
export { AuditModule } from './audit.module';
export { ChainCheckpointer } from './record-checkpoint/chain-checkpointer';
export type { SignerAlarm } from './record-checkpoint/chain-checkpointer';
export { InclusionProofResponse, TreeHeadResponse, TreeProofs } from './tree-proofs/tree-proofs';
export { MissingPositions } from './verify-hash-chain/verify-hash-chain.query';
