import { ApiProperty } from '@nestjs/swagger';
import { HASH_PATTERN } from '../../platform/openapi/hash-property';

const ORIGIN_EXAMPLE = 'example.com/crcs/5f1c0a9b2e4d';
const NOTE_EXAMPLE =
  `${ORIGIN_EXAMPLE}\n1204\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n` +
  `— ${ORIGIN_EXAMPLE} Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n` +
  '— witness.auditor.example/w1 mcgJnAAAAABrCkYJTaSWVOTDCCIOWXyNTJw5bi2XCVjoY7OIybn7BvwsZtGpAleyfUR2TwE3Kpl0AEEgu4UjI0O+c+/MVB5gX4r3BA==\n';

export class WitnessingCheckpoint {
  @ApiProperty({
    type: 'integer',
    description: 'Entries the checkpoint covers: positions 1 to tree_size',
    example: 1204,
  })
  tree_size: number;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'Its Merkle root (RFC 9162) over the entries’ chain hashes, lowercase hex',
    example: '0ac5186a91863e8e1d90c808014aa89bf5da8e3ee1d9f07630f0378f68f1ab62',
  })
  root_hash: string;

  @ApiProperty({ format: 'date-time', description: 'When the log signed it', example: '2026-11-28T03:10:00.000Z' })
  signed_at: string;

  @ApiProperty({
    description:
      'The checkpoint note exactly as `GET /log/checkpoint` serves it: the log’s signature, then each verified cosignature. Save it for `verify-chain checkpoint --policy`',
    example: NOTE_EXAMPLE,
  })
  note: string;
}

export class WitnessingWitness {
  @ApiProperty({
    description: 'The policy’s name for the witness (its groups and quorum name it so)',
    example: 'regulator',
  })
  name: string;

  @ApiProperty({
    description: 'Its cosigner key, `<name>+<key id>+<base64(0x04 ‖ Ed25519 public key)>`, as the policy lists it',
    example: 'witness.auditor.example/w1+99c8099c+BGsdSGsVXg9sM3qnKiZSZXdtfCeNdqr8xrTAXh7Wc0GC',
  })
  vkey: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Where the service asks it to cosign; null: the policy gives none, and it is never asked',
    example: 'https://witness.auditor.example',
  })
  url: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'The time in its cosignature on the latest checkpoint (to the second); null: that checkpoint carries none of its',
    example: '2026-11-28T03:10:01.000Z',
  })
  cosigned_at: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The largest tree size it cosigned, as stored by the service; null: none yet',
    example: 1204,
  })
  last_cosigned_size: number | null;
}

export class WitnessingGroup {
  @ApiProperty({ example: 'both' })
  name: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'How many of its members must have cosigned (`all` is every member, `any` one)',
    example: 2,
  })
  threshold: number;

  @ApiProperty({ type: [String], description: 'Witnesses or groups, by name', example: ['regulator', 'franchisor'] })
  members: string[];
}

export class WitnessingPolicy {
  @ApiProperty({
    description: 'The witness or group that must have cosigned a checkpoint; `none` asks for no cosignature',
    example: 'both',
  })
  quorum: string;

  @ApiProperty({ type: [WitnessingGroup], description: 'The policy’s groups, in its order' })
  groups: WitnessingGroup[];

  @ApiProperty({
    description:
      'Whether the latest checkpoint’s cosignatures meet the quorum, counted as `verify-chain checkpoint --policy` counts them; false before the first checkpoint',
    example: true,
  })
  quorum_met: boolean;

  @ApiProperty({ type: [WitnessingWitness], description: 'Every witness of the policy, in its order' })
  witnesses: WitnessingWitness[];
}

export class WitnessingResponse {
  @ApiProperty({
    description: 'The log’s name (LOG_ORIGIN, fixed at its first start): the first line of its checkpoints',
    example: ORIGIN_EXAMPLE,
  })
  origin: string;

  @ApiProperty({
    description: 'The log’s signed-note verifier key, as `GET /log/vkey` serves it',
    example: `${ORIGIN_EXAMPLE}+03de0e1b+AXRjQ7lcDkNzVuXBNp3LJyVTxiyM7rF6ZSvMmKrdiHoJ`,
  })
  vkey: string;

  @ApiProperty({
    type: WitnessingCheckpoint,
    nullable: true,
    description:
      'The latest signed checkpoint; null before the first (at most CHECKPOINT_MAX_AGE_S after the first entries)',
  })
  checkpoint: WitnessingCheckpoint | null;

  @ApiProperty({
    type: WitnessingPolicy,
    nullable: true,
    description:
      'The witnessing policy of LOG_POLICY_FILE and its state; null when LOG_POLICY_FILE is unset (no witness is asked)',
  })
  policy: WitnessingPolicy | null;
}
