import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Clock } from '../../platform/clock';
import { DomainError } from '../../platform/errors/domain-error';
import { CHECKPOINT_EVENT_TYPE, isTreeHeadCheckpoint, type CheckpointData } from '../../platform/event-store/chain-checkpoint';
import { EventStore } from '../../platform/event-store/event-store.port';
import { fromStoredTree } from '../../platform/event-store/merkle-store';
import { consistencyPath, inclusionPath, leafHash, treeRoot } from '../../platform/event-store/merkle-tree';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { HASH_PATTERN } from '../list-audit-logs/audit-entry';

const HASH_EXAMPLE = '5a1e0f3c9b7d2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f2a4c6e8b0d1f';

export class TreeHeadResponse {
  @ApiProperty({ type: 'integer', description: 'Entries the tree covers: positions 1 to tree_size', example: 2000 })
  tree_size: number;

  @ApiProperty({ pattern: HASH_PATTERN, description: 'MTH (RFC 9162 2.1.1) over the entries’ chain hashes, lowercase hex', example: HASH_EXAMPLE })
  root_hash: string;

  @ApiProperty({ format: 'date-time', description: 'When the head was signed (or, unsigned, computed)', example: '2026-11-25T14:03:11.482Z' })
  timestamp: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Ed25519 over the canonical JSON (RFC 8785) of `{root_hash, timestamp, tree_size}`, base64; null when no key is configured or no head is signed yet',
    example: 'Zm9yZ2VkIHNpZ25hdHVyZXMgZG8gbm90IHZlcmlmeQ==',
  })
  signature: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[0-9a-f]{16}$', description: 'The signing key (`GET /admin/checkpoint-key`)', example: '4bd56606b0290a99' })
  key_id: string | null;
}

export class InclusionProofResponse {
  @ApiProperty({ type: 'integer', description: 'The entry’s position in the log', example: 1204 })
  position: number;

  @ApiProperty({ type: 'integer', description: 'Its leaf index: position − 1', example: 1203 })
  leaf_index: number;

  @ApiProperty({ type: 'integer', example: 2000 })
  tree_size: number;

  @ApiProperty({ pattern: HASH_PATTERN, description: 'The entry’s chain hash: the leaf’s input', example: HASH_EXAMPLE })
  entry_hash: string;

  @ApiProperty({ pattern: HASH_PATTERN, description: 'SHA-256(0x00 ‖ entry_hash bytes)', example: HASH_EXAMPLE })
  leaf_hash: string;

  @ApiProperty({ pattern: HASH_PATTERN, description: 'The root of the tree of `tree_size` entries', example: HASH_EXAMPLE })
  root_hash: string;

  @ApiProperty({ type: [String], description: 'RFC 9162 2.1.3.1 inclusion path, the leaf’s sibling first; verify with 2.1.3.2', example: [HASH_EXAMPLE] })
  audit_path: string[];
}

export class ConsistencyProofResponse {
  @ApiProperty({ type: 'integer', example: 1000 })
  first: number;

  @ApiProperty({ type: 'integer', example: 2000 })
  second: number;

  @ApiProperty({ pattern: HASH_PATTERN, example: HASH_EXAMPLE })
  first_root: string;

  @ApiProperty({ pattern: HASH_PATTERN, example: HASH_EXAMPLE })
  second_root: string;

  @ApiProperty({ type: [String], description: 'RFC 9162 2.1.4.1 consistency proof; verify with 2.1.4.2', example: [HASH_EXAMPLE] })
  proof: string[];
}

/** What `verify-chain inclusion` takes: the proof, and the head it leads to (saved as two files). */
export interface InclusionEvidence {
  tree_head: TreeHeadResponse;
  inclusion_proof: InclusionProofResponse;
}

const hex = (b: Buffer): string => b.toString('hex');

/** Tree heads and proofs from the stored tree: O(log n) nodes read in one query per answer. */
@Injectable()
export class TreeProofs {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /** The latest signed head; unsigned over the whole log when none is signed yet. */
  async latestHead(): Promise<TreeHeadResponse> {
    const [row] = await this.db.query<{ data: CheckpointData }>('select data from events where event_type = $1 order by position desc limit 1', [
      CHECKPOINT_EVENT_TYPE,
    ]);
    if (row && isTreeHeadCheckpoint(row.data)) {
      const { tree_size, root_hash, timestamp, signature, key_id } = row.data;
      return { tree_size, root_hash, timestamp, signature, key_id };
    }
    return this.currentHead();
  }

  /**
   * A receipt's evidence: the entry's inclusion proof against the latest signed head, or, when that
   * head is older than the entry, against an unsigned head of the log as it stands.
   */
  async evidence(position: number): Promise<InclusionEvidence> {
    const latest = await this.latestHead();
    const tree_head = latest.tree_size >= position ? latest : await this.currentHead();
    return { tree_head, inclusion_proof: await this.inclusion(position, tree_head.tree_size) };
  }

  async inclusion(position: number, treeSize: number): Promise<InclusionProofResponse> {
    await this.withinLog(treeSize, 'tree_size');
    if (position > treeSize) throw outOfRange('position', `position ${position} is not in a tree of ${treeSize} entries`);
    const [entry] = await this.db.query<{ hash: string }>('select hash from events where position = $1', [position]);
    if (!entry) throw new DomainError('NOT_FOUND', `No entry at position ${position}`, HttpStatus.NOT_FOUND);
    const { path, root } = await fromStoredTree(this.db, (node) => ({ path: inclusionPath(position - 1, treeSize, node), root: treeRoot(treeSize, node) }));
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
    return { first, second, first_root: hex(proof.firstRoot), second_root: hex(proof.secondRoot), proof: proof.path.map(hex) };
  }

  private async currentHead(): Promise<TreeHeadResponse> {
    const { position } = await this.store.head();
    const root = await fromStoredTree(this.db, (node) => treeRoot(position, node));
    return { tree_size: position, root_hash: hex(root), timestamp: this.clock.now().toISOString(), signature: null, key_id: null };
  }

  private async withinLog(size: number, field: string): Promise<void> {
    const { position } = await this.store.head();
    if (size > position) throw outOfRange(field, `${field} ${size} is beyond the log, which has ${position} entries`);
  }
}

const outOfRange = (field: string, message: string) => new DomainError('VALIDATION_ERROR', message, HttpStatus.BAD_REQUEST, [{ field, messages: [message] }]);
