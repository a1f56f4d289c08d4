import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Matches } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { ROUNDING_POLICIES, type RoundingPolicy } from '../../rules/rounding-policy';

export class RoundingPolicyParams {
  @ApiProperty({
    pattern: MERCHANT_ID_PATTERN.source,
    description: 'The merchant whose sales the policy governs',
    example: 'corner-deli',
  })
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;
}

export class SetRoundingPolicyRequest {
  @ApiProperty({
    enum: ROUNDING_POLICIES,
    description:
      '`rule`: round as the rule in force says (the default). `favor_customer`: always down to the nickel, wherever the law allows rounding down ' +
      '(a rule that lets the retailer choose, a permissive or voluntary rule, a round-down rule); under a mandatory rule that says otherwise the rule applies and the sale says why',
    example: 'favor_customer',
  })
  @IsIn(ROUNDING_POLICIES)
  rounding_policy: RoundingPolicy;
}
