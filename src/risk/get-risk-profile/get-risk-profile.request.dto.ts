import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';

export class GetRiskProfileParams {
  @ApiProperty({
    pattern: MERCHANT_ID_PATTERN.source,
    description: 'The merchant to profile',
    example: 'm-quickstop-042',
  })
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;
}
