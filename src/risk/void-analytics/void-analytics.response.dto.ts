import { ApiProperty, OmitType } from '@nestjs/swagger';
import { AsOfPosition } from '../../platform/as-of-position';
import { PageAnswer } from '../../platform/page.request.dto';
import { VoidRatesDto } from '../risk-analysis.response.dto';

/** One merchant's line of the analytics: its rates without the breakdowns. */
export class MerchantVoidRates extends OmitType(VoidRatesDto, [
  'voids_by_hour',
  'voids_by_reason',
  'shift_change',
  'top_employee',
] as const) {
  @ApiProperty({ example: 'm-quickstop-042' })
  merchant_id: string;
}

export class VoidAnalyticsResponse extends PageAnswer {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The `merchant_id` asked for; null: every merchant',
    example: null,
  })
  merchant_id: string | null;

  @AsOfPosition()
  as_of_position: number;

  /** Every merchant (or the one asked for) as one; no employee is named across merchants. */
  @ApiProperty({
    description:
      'Every merchant (or the one asked for) as one; `top_employee` is null here, as no employee is named across merchants',
  })
  totals: VoidRatesDto;

  /** Highest void rate first, a page of them. */
  @ApiProperty({
    type: [MerchantVoidRates],
    description: 'A page of the merchants, highest void rate first (none: last), ties by merchant id',
  })
  merchants: MerchantVoidRates[];

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Merchants with any sale, void or refund, in all',
    example: 2,
  })
  merchant_count: number;
}
