import { ApiProperty } from '@nestjs/swagger';
import type { EntryPromise } from '@crcs/tlog';

/** The answer's signed promise of its entry: keep it, and check it later with `npm run verify-chain -- promise`. */
export class EntryPromiseResponse implements EntryPromise {
  @ApiProperty({
    description: 'The log’s name, its origin, as its checkpoints name it (`LOG_ORIGIN`)',
    example: 'example.com/crcs/5f1c0a9b2e4d',
  })
  origin: string;

  @ApiProperty({ type: 'integer', description: 'The entry’s position in the log', example: 1204 })
  position: number;

  @ApiProperty({
    pattern: '^[0-9a-f]{64}$',
    description: 'The entry’s chain hash (`auditHash`)',
    example: '9f2c4e1a7b3d5f60812a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d',
  })
  entry_hash: string;

  @ApiProperty({ format: 'date-time', description: 'When the entry was recorded', example: '2026-11-21T14:32:07.512Z' })
  timestamp: string;

  @ApiProperty({
    pattern: '^[0-9a-f]{16}$',
    description: 'The key that signed: the checkpoint key (`GET /admin/checkpoint-key`)',
    example: '4bd56606b0290a99',
  })
  key_id: string;

  @ApiProperty({
    description:
      'Ed25519, base64, over the canonical JSON (RFC 8785) of `{entry_hash, origin, position, statement: "crcs entry promise v1", timestamp}`',
    example: 'q1Xb0m3bY2kqJ4H4u0c5bq6E3rW7q9V0o1Lw1m9gq2oH0c2Xx9m0b0l9bq5m8q3u7r5m1t0o2c8r6b3n9m4k0A==',
  })
  signature: string;
}
