import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { HASH_PATTERN } from '../platform/openapi/hash-property';
import {
  BREAK_KINDS,
  type BreakKind,
  type ChainBreak as VerifierBreak,
  type ChainVerification,
  type CheckpointSummary as VerifierCheckpoints,
  MAX_LISTED_BREAKS,
  type TreeSummary as VerifierTree,
} from '@crcs/tlog';

/*
 * The verifier's result (packages/tlog/src/chain-verifier.ts) as the route documents it. The verifier
 * keeps plain interfaces, as the offline verifier (packages/tlog/src/bin/verify-chain.ts) loads it with nothing of
 * the service; these classes implement them, so a field added there and not here does not compile.
 */

const HASH_EXAMPLE = '9f2c4e1a7b3d5f60812a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d';

const OTHER_HASH_EXAMPLE = '3b7e9d1f5a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c1e3f';

export class BreakCheckpoint {
  @ApiProperty({ type: 'integer', description: 'The checkpoint’s number, from 1', example: 2 })
  checkpoint: number;

  @ApiProperty({ type: 'integer', description: 'Where the checkpoint entry is stored', example: 2001 })
  position: number;

  @ApiProperty({ format: 'uuid', example: '8d3f2a1c-6e5b-4c7d-9f0a-2b1c3d4e5f6a' })
  entry_id: string;
}

export class MissingPositions {
  @ApiProperty({ type: 'integer', example: 1205 })
  from: number;

  @ApiProperty({ type: 'integer', example: 1207 })
  to: number;
}

export class ChainBreak implements VerifierBreak {
  @ApiProperty({
    enum: BREAK_KINDS,
    description:
      '`modified`: an entry’s hash or link does not match its fields; `deleted`: entries are missing; `reordered`: an entry is ' +
      'stored away from the position its hash covers; `inserted`: an entry no later entry continues from; `unauthenticated`: ' +
      'no valid writer authenticator; `rule_reference`: a sale names a rule or policy entry that is not earlier in the log ' +
      'with that hash, or names none though the rules are in the log',
  })
  kind: BreakKind;

  @ApiProperty({ type: 'integer', description: 'Where the affected entry is stored now', example: 1204 })
  position: number;

  @ApiProperty({ format: 'uuid', description: 'The affected entry', example: '5f0c9a7e-2b1d-4c3e-9a8f-6d2e1b0c4a7f' })
  entry_id: string;

  @ApiProperty({ description: 'What was found, for people', example: 'stored hash does not match the entry' })
  detail: string;

  @ApiPropertyOptional({
    pattern: HASH_PATTERN,
    description: 'A broken link: the hash of the entry before',
    example: OTHER_HASH_EXAMPLE,
  })
  expected_prev_hash?: string;

  @ApiPropertyOptional({
    pattern: HASH_PATTERN,
    description: 'A broken link: the prev_hash the entry holds',
    example: HASH_EXAMPLE,
  })
  actual_prev_hash?: string;

  @ApiPropertyOptional({
    pattern: HASH_PATTERN,
    description: 'The hash the entry’s fields give (or a checkpoint or the store’s head vouches for)',
    example: OTHER_HASH_EXAMPLE,
  })
  expected_hash?: string;

  @ApiPropertyOptional({ pattern: HASH_PATTERN, description: 'The hash stored', example: HASH_EXAMPLE })
  stored_hash?: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: '`reordered`: the position the entry’s hash was computed for, i.e. where it belongs',
    example: 1206,
  })
  original_position?: number;

  @ApiPropertyOptional({
    type: MissingPositions,
    description: '`deleted`: the positions (as the chain numbered them) of the entries that are gone',
  })
  missing_positions?: MissingPositions;

  @ApiPropertyOptional({
    type: BreakCheckpoint,
    description: 'A break that a signed checkpoint revealed: the checkpoint entry',
  })
  checkpoint?: BreakCheckpoint;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'A break that a witnessed tree head revealed: its tree size',
    example: 2000,
  })
  witnessed_tree_size?: number;
}

export class LastCheckpoint {
  @ApiProperty({ type: 'integer', example: 2 })
  checkpoint: number;

  @ApiProperty({ type: 'integer', description: 'The position the checkpoint vouches for', example: 2000 })
  position: number;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'The hash it vouches for at that position',
    example: HASH_EXAMPLE,
  })
  hash: string;
}

export class CheckpointSummary implements VerifierCheckpoints {
  @ApiProperty({ type: 'integer', description: 'Checkpoint entries in the range', example: 2 })
  count: number;

  @ApiProperty({
    description: 'Whether checkpoint signatures were checked: false when the service has no CHECKPOINT_SIGNING_KEY',
    example: true,
  })
  signatures_checked: boolean;

  @ApiProperty({
    type: LastCheckpoint,
    nullable: true,
    description:
      'The last checkpoint seen, for an auditor to compare with one kept from an earlier verification; null when none',
  })
  last: LastCheckpoint | null;
}

export class TreeSummary implements VerifierTree {
  @ApiProperty({
    type: 'integer',
    description: 'Entries the Merkle tree covers: those before the range and those read',
    example: 2002,
  })
  tree_size: number;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'The Merkle tree root (RFC 9162) over them, to compare with a tree head kept from before',
    example: HASH_EXAMPLE,
  })
  root_hash: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Tree heads of the witness file (CHECKPOINT_WITNESS_FILE) checked: the log must extend each; null when there is none',
    example: 2,
  })
  witnessed_heads: number | null;
}

@ApiSchema({ name: 'ChainVerification' })
export class VerifyHashChainResponse implements ChainVerification {
  @ApiProperty({ type: 'integer', description: 'Entries verified in the range', example: 2002 })
  total_count: number;

  @ApiProperty({ type: 'integer', description: 'Entries whose hash and link verified', example: 2002 })
  verified_count: number;

  @ApiProperty({ type: 'integer', description: 'Breaks detected; above 0 indicates possible tampering', example: 0 })
  break_count: number;

  @ApiProperty({
    type: [ChainBreak],
    description: `Each break, by position; at most ${MAX_LISTED_BREAKS} are listed, \`break_count\` counts them all`,
  })
  breaks: ChainBreak[];

  @ApiProperty()
  checkpoints: CheckpointSummary;

  @ApiProperty({
    type: TreeSummary,
    nullable: true,
    description: 'The Merkle tree over the range; null when the stored tree before the range could not be read',
  })
  tree: TreeSummary | null;

  @ApiProperty({ type: 'integer', example: 1 })
  from_position: number;

  @ApiProperty({
    type: 'integer',
    description: 'The last position verified: `to_position`, or the end of the log when absent or beyond it',
    example: 2002,
  })
  to_position: number;
}
