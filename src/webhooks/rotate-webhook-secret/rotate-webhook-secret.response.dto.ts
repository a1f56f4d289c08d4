import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class RotatedWebhookSecret {
  @ApiProperty({ description: 'The new secret, shown this once', example: 'whsec_9aYz1Jb0aM3tq4Zx2m6QCw8nR5uVdKs7' })
  secret: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'The old secret signs beside the new one until then',
    example: '2026-11-27T15:00:00.000Z',
  })
  previous_secret_expires_at: string;
}
