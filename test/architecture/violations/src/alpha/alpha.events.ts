import { ApiProperty } from '@nestjs/swagger';

export class AlphaHappened {
  @ApiProperty()
  what: string;
}
