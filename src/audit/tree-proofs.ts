import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock';
import { DomainError } from '../platform/errors/domain-error';
import { AppConfig } from '../platform/config/config';
import { formatTlogProof, consistencyPath, inclusionPath, leafHash, treeRoot, type EntryPromise } from '@crcs/tlog';
import { EventStore } from '../platform/event-store/event-store.port';
import { fromStoredTree } from '../platform/event-store/merkle-store';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { ChainAlarms } from './chain-alarms';
import { chainTampered } from './chain-tampered';
import { EntryPromises } from './entry-promises';
import { CheckpointNotes, type LoggedHead } from './checkpoint-notes';
import { Cosignatures } from './cosignatures';
import { TreeHeadResponse, InclusionProofResponse, ConsistencyProofResponse } from './tree-proofs.response.dto';

/** What `verify-chain inclusion` takes: the proof, and the head it leads to (saved as two files). */
export interface InclusionEvidence {
  tree_head: TreeHeadResponse;
  inclusion_proof: InclusionProofResponse;
  /** The entry's signed promise, as its write's answer carried it. */
  promise: EntryPromise | null;
  /** The same inclusion as a c2sp.org/tlog-proof, its checkpoint a signed note: null while `tree_head` is unsigned. */
  tlog_proof: string | null;
}

const hex = (b: Buffer): string => b.toString('hex');

const treeHead = ({
  tree_size: treeSize,
  root_hash: rootHash,
  timestamp,
  signature,
  key_id: keyId,
}: LoggedHead): TreeHeadResponse => ({
  tree_size: treeSize,
  root_hash: rootHash,
  timestamp,
  signature,
  key_id: keyId,
});

/** Tree heads and proofs from the stored tree: O(log n) nodes read in one query per answer. */
@Injectable()
export class TreeProofs {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly alarms: ChainAlarms,
    private readonly promises: EntryPromises,
    private readonly notes: CheckpointNotes,
    private readonly cosignatures: Cosignatures,
  ) {}

  /** The latest signed head; unsigned over the whole log when none is signed yet. */
  async latestHead(): Promise<TreeHeadResponse> {
    const logged = await this.notes.latest();
    return logged ? treeHead(logged) : this.currentHead();
  }

  /**
   * A receipt's evidence: the entry's inclusion proof against the latest signed head, or, when that
   * head is older than the entry, against an unsigned head of the log as it stands. The proof is of
   * the record's own entry or of nothing: when the entry at `position` is not the one with `entryHash`
   * (the record's entry was deleted or changed, another moved into its place), that is an alarm and a
   * 503, never a proof for whatever entry sits there now; so is an entry whose writer
   * authenticator does not verify, for which no promise is ever signed.
   */
  async evidence(position: number, entryHash: string): Promise<InclusionEvidence> {
    const logged = await this.notes.latest();
    const signed = logged && logged.tree_size >= position ? logged : undefined;
    const head = signed ? treeHead(signed) : await this.currentHead();
    const inclusionProof = await this.inclusion(position, head.tree_size).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    });
    if (!inclusionProof || inclusionProof.entry_hash !== entryHash) {
      const detail = inclusionProof
        ? `the entry at position ${position} has hash ${inclusionProof.entry_hash}, not the record's audit hash ${entryHash}: the record's entry was changed or replaced`
        : `the log has no entry at position ${position}, where the record's entry (audit hash ${entryHash}) was: it was deleted`;
      await this.alarms.raise({ source: 'receipt', kind: inclusionProof ? 'modified' : 'deleted', position, detail });
      throw chainTampered(detail);
    }
    const [entry] = await this.db.query<{ writer_mac: string | null; recorded_at: Date }>(
      'select writer_mac, recorded_at from events where position = $1 and hash = $2',
      [position, entryHash],
    );
    // Gone since the proof was read: the next receipt's proof finds out what happened.
    if (!entry) throw chainTampered(`the entry at position ${position} changed while its receipt was made`);
    const promise = this.promises.ofStored({
      position,
      hash: entryHash,
      recordedAt: entry.recorded_at.toISOString(),
      writerMac: entry.writer_mac,
    });
    if (promise === false) {
      const detail = `the entry at position ${position} carries a writer authenticator that does not verify: no service process wrote it as it is`;
      await this.alarms.raise({ source: 'receipt', kind: 'unauthenticated', position, detail });
      throw chainTampered(detail);
    }
    // With the witnesses' cosignatures, as GET /log/checkpoint serves it: a proof that checks against a policy's quorum.
    const checkpoint =
      signed && this.config.checkpointSigningKey ? await this.cosignatures.cosignedNote(signed) : undefined;
    const tlogProof = checkpoint
      ? formatTlogProof({
          index: inclusionProof.leaf_index,
          path: inclusionProof.audit_path.map((hash) => Buffer.from(hash, 'hex')),
          checkpoint,
        })
      : null;
    return { tree_head: head, inclusion_proof: inclusionProof, promise, tlog_proof: tlogProof };
  }

  async inclusion(position: number, treeSize: number): Promise<InclusionProofResponse> {
    await this.withinLog(treeSize, 'tree_size');
    if (position > treeSize)
      throw outOfRange('position', `position ${position} is not in a tree of ${treeSize} entries`);
    const [entry] = await this.db.query<{ hash: string }>('select hash from events where position = $1', [position]);
    if (!entry) throw new DomainError('NOT_FOUND', `No entry at position ${position}`, HttpStatus.NOT_FOUND);
    const { path, root } = await fromStoredTree(this.db, (node) => ({
      path: inclusionPath(position - 1, treeSize, node),
      root: treeRoot(treeSize, node),
    }));
    return {
      position,
      leaf_index: position - 1,
      tree_size: treeSize,
      entry_hash: entry.hash,
      leaf_hash: hex(leafHash(entry.hash)),
      root_hash: hex(root),
      audit_path: path.map(hex),
    };
  }

  async consistency(first: number, second: number): Promise<ConsistencyProofResponse> {
    await this.withinLog(second, 'second');
    if (first > second) throw outOfRange('first', `first (${first}) must not be above second (${second})`);
    const proof = await fromStoredTree(this.db, (node) => ({
      path: consistencyPath(first, second, node),
      firstRoot: treeRoot(first, node),
      secondRoot: treeRoot(second, node),
    }));
    return {
      first,
      second,
      first_root: hex(proof.firstRoot),
      second_root: hex(proof.secondRoot),
      proof: proof.path.map(hex),
    };
  }

  private async currentHead(): Promise<TreeHeadResponse> {
    const { position } = await this.store.head();
    const root = await fromStoredTree(this.db, (node) => treeRoot(position, node));
    return {
      tree_size: position,
      root_hash: hex(root),
      timestamp: this.clock.now().toISOString(),
      signature: null,
      key_id: null,
    };
  }

  private async withinLog(size: number, field: string): Promise<void> {
    const { position } = await this.store.head();
    if (size > position) throw outOfRange(field, `${field} ${size} is beyond the log, which has ${position} entries`);
  }
}

const outOfRange = (field: string, message: string) =>
  new DomainError('VALIDATION_ERROR', message, HttpStatus.BAD_REQUEST, [{ field, messages: [message] }]);
