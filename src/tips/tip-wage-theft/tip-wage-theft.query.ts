import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import { TipWageTheftFlag } from './tip-wage-theft.response.dto';

export class TipWageTheftResponse {
  @ApiProperty({ type: 'string', nullable: true, description: 'The merchant asked for; null: every merchant', example: 'm-corner-deli-01' })
  merchant_id: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-21T21:47:05.118Z' })
  as_of: string;

  /** Tips recorded and pools created before this were due by now. */
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: '`as_of` less `payout_grace_days`: tips recorded and pools created before this were due to be paid out and distributed by now',
    example: '2026-11-07T21:47:05.118Z',
  })
  due_before: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The configured grace period in days (TIP_PAYOUT_GRACE_DAYS)', example: 14 })
  payout_grace_days: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  flag_count: number;

  @ApiProperty({ type: [TipWageTheftFlag], description: 'Downward adjustments, then payout shortfalls, then pool flags, then checks under the federal minimum' })
  flags: TipWageTheftFlag[];
}

export class TipWageTheftQuery extends Query<TipWageTheftResponse> {
  constructor(readonly merchantId: string | null) {
    super();
  }
}
