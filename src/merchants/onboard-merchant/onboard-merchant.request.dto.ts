import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import { ENVIRONMENTS, type Environment } from '../../platform/identity/principal';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_PROPERTY, MERCHANT_ID_RULE } from '../merchant-id';

const NAME_LENGTH = { min: 1, max: 200 } as const;

export class OnboardMerchantRequest {
  @ApiProperty({
    ...MERCHANT_ID_PROPERTY,
    description: `The merchant's id, chosen by the caller: ${MERCHANT_ID_PROPERTY.description}`,
  })
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;

  @ApiProperty({ minLength: NAME_LENGTH.min, maxLength: NAME_LENGTH.max, example: 'Corner Deli' })
  @IsString()
  @Length(NAME_LENGTH.min, NAME_LENGTH.max)
  name: string;

  @ApiProperty({
    enum: ENVIRONMENTS,
    description:
      "A partner key onboards merchants of its own environment only; the merchant's keys are all of this environment",
    example: 'production',
  })
  @IsIn(ENVIRONMENTS)
  environment: Environment;
}
