import { createPublicKey } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../platform/errors/domain-error';
import { validationError } from '../../platform/errors/validation.pipe';
import { AppConfig } from '../../platform/config/config';
import { keyRing, writerKey } from '@crcs/tlog';
import { loadFrontier } from '../../platform/event-store/merkle-store';
import { writersRequiredFrom } from '../../platform/event-store/writer-authentication';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { verifyStoredLog } from '../../platform/verification/stored-verification';
import { logExtent } from '../read-log';
import { ChainAlarms } from '../chain-alarms';
import { Witness, WitnessStateError } from '../witness';
import { VerificationGate } from '../verification-gate';
import { VerifyHashChainQuery } from './verify-hash-chain.query';
import type { VerifyHashChainResponse } from '../verify-hash-chain.response.dto';

/**
 * Hashes every entry of the range as stored, a batch at a time on worker threads, with the same
 * verifier and the same witness as the offline one, so both give one answer. Checkpoint
 * signatures are checked with the service's own key, and every entry's writer authenticator with
 * the writer key derived from it: an auditor who does not trust the service
 * exports the log and runs the offline verifier with the public key and witness kept from before.
 */
@QueryHandler(VerifyHashChainQuery)
export class VerifyHashChainHandler implements IQueryHandler<VerifyHashChainQuery, VerifyHashChainResponse> {
  private readonly checkpointKeys;
  private readonly writerKey;

  constructor(
    @Inject(DATABASE) private readonly primary: Database,
    private readonly databases: QueryDatabases,
    private readonly witness: Witness,
    private readonly alarms: ChainAlarms,
    private readonly gate: VerificationGate,
    config: AppConfig,
  ) {
    const key = config.checkpointSigningKey;
    this.checkpointKeys = key && keyRing([createPublicKey(key)]);
    this.writerKey = key && writerKey(key);
  }

  /** It takes a verification's turn; a request for the range being verified shares its answer. */
  execute(query: VerifyHashChainQuery): Promise<VerifyHashChainResponse> {
    const { from_position: fromPosition, to_position: toPosition } = query.request;
    return this.gate.run(JSON.stringify([fromPosition, toPosition ?? null]), () => this.verify(query));
  }

  private async verify(query: VerifyHashChainQuery): Promise<VerifyHashChainResponse> {
    const { request } = query;
    const { db } = await this.databases.for(query);
    const { lastPosition } = await logExtent(db);
    const from = request.from_position;
    const to = Math.min(request.to_position ?? lastPosition, lastPosition);
    if (request.to_position !== undefined && request.to_position < from) {
      throw validationError([{ field: 'to_position', messages: ['to_position must not be below from_position'] }]);
    }
    if (from > Math.max(lastPosition, 1)) {
      throw validationError([
        { field: 'from_position', messages: [`from_position is past the end of the log (${lastPosition})`] },
      ]);
    }
    // A witnessed head past a replica's last entry is one it has not replayed yet, unless the primary
    // has no such entry either: then entries were cut from the log's end.
    const primaryLast = db === this.primary ? lastPosition : (await logExtent(this.primary)).lastPosition;
    const result = await verifyStoredLog(db, from, to, {
      fromPosition: from,
      checkpointKeys: this.checkpointKeys,
      writerKey: this.writerKey,
      writersRequiredFrom: this.writerKey && from > 1 ? await writersRequiredFrom(db, from) : undefined,
      // A range starts from the stored tree before it, as it trusts its first entry's link.
      treeBefore: from > 1 ? await loadFrontier(db, from - 1).catch(() => undefined) : undefined,
      // Only a verification to the end can tell that entries were cut from it.
      witness: this.witness.configured
        ? (await this.witnessHeads()).filter(
            (head) => head.tree_size <= to || (to === lastPosition && head.tree_size > primaryLast),
          )
        : undefined,
    });
    const [first] = result.breaks;
    if (first) {
      const detail = `verification found ${result.break_count} break(s), the first at position ${first.position} (${first.kind}): ${first.detail}`;
      await this.alarms.raise({ source: 'verification', kind: first.kind, position: first.position, detail });
    }
    return { ...result, from_position: from, to_position: to };
  }

  /** Without the heads it must check, a verification would say less than it seems to: it is refused, loudly. */
  private async witnessHeads() {
    try {
      return await this.witness.heads();
    } catch (error) {
      if (!(error instanceof WitnessStateError)) throw error;
      await this.alarms.raise({ source: 'verification', kind: 'witness', position: null, detail: error.message });
      throw new DomainError(
        'CHAIN_ALARM',
        `The log cannot be verified against its signed heads: ${error.message}`,
        503,
      );
    }
  }
}
