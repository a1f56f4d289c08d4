import { ApiProperty } from '@nestjs/swagger';
import { HASH_PATTERN } from '../platform/openapi/hash-property';

const HASH_EXAMPLE = '5a1e0f3c9b7d2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f2a4c6e8b0d1f';

export class TreeHeadResponse {
  @ApiProperty({ type: 'integer', description: 'Entries the tree covers: positions 1 to tree_size', example: 2000 })
  tree_size: number;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'MTH (RFC 9162 2.1.1) over the entries’ chain hashes, lowercase hex',
    example: HASH_EXAMPLE,
  })
  root_hash: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the head was signed (or, unsigned, computed)',
    example: '2026-11-25T14:03:11.482Z',
  })
  timestamp: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Ed25519 over the canonical JSON (RFC 8785) of `{root_hash, timestamp, tree_size}`, base64; null when no key is configured or no head is signed yet',
    example: 'Zm9yZ2VkIHNpZ25hdHVyZXMgZG8gbm90IHZlcmlmeQ==',
  })
  signature: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: '^[0-9a-f]{16}$',
    description: 'The signing key (`GET /admin/checkpoint-key`)',
    example: '4bd56606b0290a99',
  })
  key_id: string | null;
}

export class InclusionProofResponse {
  @ApiProperty({ type: 'integer', description: 'The entry’s position in the log', example: 1204 })
  position: number;

  @ApiProperty({ type: 'integer', description: 'Its leaf index: position − 1', example: 1203 })
  leaf_index: number;

  @ApiProperty({ type: 'integer', example: 2000 })
  tree_size: number;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'The entry’s chain hash: the leaf’s input',
    example: HASH_EXAMPLE,
  })
  entry_hash: string;

  @ApiProperty({ pattern: HASH_PATTERN, description: 'SHA-256(0x00 ‖ entry_hash bytes)', example: HASH_EXAMPLE })
  leaf_hash: string;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'The root of the tree of `tree_size` entries',
    example: HASH_EXAMPLE,
  })
  root_hash: string;

  @ApiProperty({
    type: [String],
    description: 'RFC 9162 2.1.3.1 inclusion path, the leaf’s sibling first; verify with 2.1.3.2',
    example: [HASH_EXAMPLE],
  })
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

  @ApiProperty({
    type: [String],
    description: 'RFC 9162 2.1.4.1 consistency proof; verify with 2.1.4.2',
    example: [HASH_EXAMPLE],
  })
  proof: string[];
}
