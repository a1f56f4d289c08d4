import { Module } from '@nestjs/common';
import { ExportAuditLogController } from './export-audit-log/export-audit-log.controller';
import { ListAuditLogsController } from './list-audit-logs/list-audit-logs.controller';
import { ListAuditLogsHandler } from './list-audit-logs/list-audit-logs.handler';
import { ChainCheckpointer } from './record-checkpoint/chain-checkpointer';
import { CheckpointKeyController } from './record-checkpoint/checkpoint-key.controller';
import { VerifyHashChainController } from './verify-hash-chain/verify-hash-chain.controller';
import { VerifyHashChainHandler } from './verify-hash-chain/verify-hash-chain.handler';

/**
 * The audit log is the event log itself: listing it, verifying its hash chain, exporting it for
 * the offline verifier, and the signed checkpoints that make a rewritten tail detectable.
 */
@Module({
  controllers: [ListAuditLogsController, VerifyHashChainController, ExportAuditLogController, CheckpointKeyController],
  providers: [ListAuditLogsHandler, VerifyHashChainHandler, ChainCheckpointer],
})
export class AuditModule {}
