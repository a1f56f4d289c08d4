import { IsIn, IsString, Length, Matches } from 'class-validator';
import { ENVIRONMENTS, type Environment } from '../../auth/principal';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../merchant-id';

export class OnboardMerchantRequest {
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;

  @IsString()
  @Length(1, 200)
  name: string;

  @IsIn(ENVIRONMENTS)
  environment: Environment;
}
