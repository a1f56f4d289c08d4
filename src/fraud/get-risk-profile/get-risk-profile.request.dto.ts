import { IsString, Matches } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';

export class GetRiskProfileParams {
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;
}
