import { ApiProperty } from '@nestjs/swagger';

export class ReplayedWebhooks {
  @ApiProperty({ type: 'integer', description: 'Deliveries queued to be sent again', example: 3 })
  replayed: number;
}
