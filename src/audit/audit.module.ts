import { Module } from '@nestjs/common';
import { ChainAlarms } from './chain-alarms';
import { Cosignatures } from './cosignatures';
import { ExportAuditLogController } from './export-audit-log/export-audit-log.controller';
import { ExportAuditLogHandler } from './export-audit-log/export-audit-log.handler';
import { ListAuditLogsController } from './list-audit-logs/list-audit-logs.controller';
import { ListAuditLogsHandler } from './list-audit-logs/list-audit-logs.handler';
import { ChainCheckpointer } from './chain-checkpointer';
import { CheckpointKeyController } from './record-checkpoint/checkpoint-key.controller';
import { CheckpointKeyHandler } from './record-checkpoint/checkpoint-key.handler';
import { Witness } from './witness';
import { WitnessController } from './record-checkpoint/witness.controller';
import { WitnessHandler } from './record-checkpoint/witness.handler';
import { EntryPromises } from './entry-promises';
import { TreeProofs } from './tree-proofs';
import { CheckpointNotes } from './checkpoint-notes';
import { TreeProofsController } from './tree-proofs/tree-proofs.controller';
import { ConsistencyProofHandler, InclusionProofHandler, TreeHeadHandler } from './tree-proofs/tree-proofs.handler';
import { VerifyHashChainController } from './verify-hash-chain/verify-hash-chain.controller';
import { VerifyHashChainHandler } from './verify-hash-chain/verify-hash-chain.handler';
import { TransparencyLogController } from './transparency-log/transparency-log.controller';
import { CheckpointNoteHandler, TileHandler, VerifierKeyHandler } from './transparency-log/transparency-log.handler';
import { VerificationGate } from './verification-gate';
import { VerifyReadModelsController } from './verify-read-models/verify-read-models.controller';
import { VerifyReadModelsHandler } from './verify-read-models/verify-read-models.handler';
import { WitnessingController } from './witnessing/witnessing.controller';
import { WitnessingHandler } from './witnessing/witnessing.handler';

/**
 * The audit log is the event log itself: listing it, verifying its hash chain, exporting it for
 * the offline verifier, its Merkle tree's heads and proofs, and the signed tree heads (in the log
 * and in the witness file) that make a rewritten tail detectable, and the same log in the C2SP
 * formats (checkpoint notes, tiles) under its origin, with the cosignatures of independent witnesses.
 */
@Module({
  controllers: [
    ListAuditLogsController,
    VerifyHashChainController,
    VerifyReadModelsController,
    ExportAuditLogController,
    CheckpointKeyController,
    TreeProofsController,
    WitnessController,
    TransparencyLogController,
    WitnessingController,
  ],
  providers: [
    ListAuditLogsHandler,
    VerifyHashChainHandler,
    VerifyReadModelsHandler,
    VerificationGate,
    ExportAuditLogHandler,
    CheckpointKeyHandler,
    WitnessHandler,
    TreeHeadHandler,
    InclusionProofHandler,
    ConsistencyProofHandler,
    ChainCheckpointer,
    Witness,
    TreeProofs,
    CheckpointNotes,
    ChainAlarms,
    EntryPromises,
    CheckpointNoteHandler,
    VerifierKeyHandler,
    TileHandler,
    Cosignatures,
    WitnessingHandler,
  ],
  exports: [ChainCheckpointer, TreeProofs, ChainAlarms, EntryPromises, VerificationGate, Cosignatures],
})
export class AuditModule {}
