import { ApiProperty } from '@nestjs/swagger';
import { MERCHANT_ID_PROPERTY } from '../../merchants/merchant-id';
import { ROUNDING_POLICIES, type RoundingPolicy } from '../../rules/rounding-policy';

export class RoundingPolicyAnswer {
  @ApiProperty(MERCHANT_ID_PROPERTY)
  merchant_id: string;

  @ApiProperty({
    enum: ROUNDING_POLICIES,
    description: "The merchant's policy from its next sale on",
    example: 'favor_customer',
  })
  rounding_policy: RoundingPolicy;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the policy was set; null for a merchant that never set one (it rounds as the rule says)',
    example: '2026-11-26T15:40:00.000Z',
  })
  set_at: string | null;
}
