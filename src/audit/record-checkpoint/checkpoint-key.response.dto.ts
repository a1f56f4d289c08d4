import { ApiProperty } from '@nestjs/swagger';

export const CHECKPOINT_ALGORITHMS = ['Ed25519'] as const;

export class CheckpointKeyResponse {
  @ApiProperty({ enum: CHECKPOINT_ALGORITHMS })
  algorithm: (typeof CHECKPOINT_ALGORITHMS)[number];

  @ApiProperty({
    pattern: '^[0-9a-f]{16}$',
    description:
      'The first 16 hex digits of the SHA-256 of the key’s DER (SubjectPublicKeyInfo); each checkpoint names the key that signed it',
    example: '4bd56606b0290a99',
  })
  key_id: string;

  /** SubjectPublicKeyInfo; save it as a file for `verify-chain --public-key`. */
  @ApiProperty({
    description: 'SubjectPublicKeyInfo in PEM; save it as a file for `verify-chain --public-key`',
    example:
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAA2Npzg60sF+wkGddjdIrR2v/AQcwdwsSlos6WXHDpiM=\n-----END PUBLIC KEY-----\n',
  })
  public_key_pem: string;

  @ApiProperty({
    description: 'The log’s name (LOG_ORIGIN, fixed at its first start): the first line of its checkpoints',
    example: 'example.com/crcs/5f1c0a9b2e4d',
  })
  origin: string;

  @ApiProperty({
    description:
      'The same key as a C2SP signed-note verifier key, `<origin>+<key id>+<base64(0x01 ‖ public key)>`: what `GET /log/checkpoint` verifies with',
    example: 'example.com/crcs/5f1c0a9b2e4d+03de0e1b+AXRjQ7lcDkNzVuXBNp3LJyVTxiyM7rF6ZSvMmKrdiHoJ',
  })
  vkey: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'A checkpoint is appended once the log has grown this many entries past the last one',
    example: 1000,
  })
  checkpoint_interval: number;
}
