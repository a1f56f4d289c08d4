import { ApiProperty } from '@nestjs/swagger';
import { TIP_ID_PATTERN } from './tip-ids';
import { TIP_ID_EXAMPLE, TipDoc } from './tip-doc';
import { TIP_POOL_STATUSES, TipPoolShareView, type TipPoolStatus, type TipPoolView } from './tip.response.dto';
import type { PayoutMethod, PoolMethod, TipMethod } from './tip.events';

const { AuditHash, MerchantId, Instant, Cents, PoolId, PoolName, DistributionMethod, EXAMPLE_TIME } = TipDoc;
const Count = (example: number, description?: string) =>
  ApiProperty({ type: 'integer', minimum: 0, description, example });

export class TipMethodTotal {
  @Count(2)
  count: number;

  @Cents(601, 'Current amounts, after adjustments')
  total_cents: number;

  @Cents(301, '`total_cents / count` rounded to the nearest cent; 0 when there are none')
  average_cents: number;
}

export class TipTotalsByMethod implements Record<TipMethod, TipMethodTotal> {
  @ApiProperty({ type: TipMethodTotal, description: 'Tips of `POST /tip/cash`' })
  cash: TipMethodTotal;

  @ApiProperty({ type: TipMethodTotal, description: 'Tips of `POST /tip/credit-card`' })
  credit_card: TipMethodTotal;
}

export class TipPayoutTotalsByMethod implements Record<PayoutMethod, TipMethodTotal> {
  @ApiProperty({ type: TipMethodTotal })
  cash: TipMethodTotal;

  @ApiProperty({ type: TipMethodTotal })
  check: TipMethodTotal;

  @ApiProperty({ type: TipMethodTotal })
  direct_deposit: TipMethodTotal;
}

export class TipTotals {
  @Count(3)
  count: number;

  @Cents(1801, 'Current amounts, after adjustments')
  total_cents: number;

  @Cents(600, 'The average tip, rounded to the nearest cent; 0 when there are none')
  average_cents: number;

  @ApiProperty({ type: TipTotalsByMethod, description: 'Every method, with zeros where there are none' })
  by_method: TipTotalsByMethod;
}

export class TipPayoutTotals {
  @Count(1)
  count: number;

  @Cents(600)
  total_cents: number;

  @Cents(600, 'The average payout, rounded to the nearest cent; 0 when there are none')
  average_cents: number;

  @ApiProperty({ type: TipPayoutTotalsByMethod, description: 'Every method, with zeros where there are none' })
  by_method: TipPayoutTotalsByMethod;
}

export class TipAdjustmentTotals {
  @Count(1)
  count: number;

  @Count(1, 'Adjustments that raised a tip')
  upward_count: number;

  @Count(0, 'Adjustments that cut a tip (each is a flag of GET /analytics/tip-wage-theft)')
  downward_count: number;

  @Cents(200, 'The sum of every adjustment’s change; negative when tips were cut more than raised')
  net_change_cents: number;
}

/** A pool as the analytics list it: the new pool's own fields (TipPoolView), its counts, and its distribution once made. */
export class TipPoolSummary implements Pick<
  TipPoolView,
  'merchant_id' | 'pool_name' | 'distribution_method' | 'total_cents' | 'created_at'
> {
  @PoolId()
  pool_id: string;

  @MerchantId()
  merchant_id: string;

  @PoolName()
  pool_name: string;

  @DistributionMethod()
  distribution_method: PoolMethod;

  @ApiProperty({ enum: TIP_POOL_STATUSES, example: 'distributed' })
  status: TipPoolStatus;

  @Cents(400, 'What the pooled tips hold')
  total_cents: number;

  @Count(3)
  participant_count: number;

  @Count(1, 'Employees whose tips went in')
  contributor_count: number;

  @Instant()
  created_at: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'null while the pool is open',
    example: EXAMPLE_TIME,
  })
  distributed_at: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The sum of the shares; null while the pool is open',
    example: 402,
  })
  total_distributed_cents: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'What rounding every share up cost the employer; null while the pool is open',
    example: 2,
  })
  rounding_adjustment_cents: number | null;

  @ApiProperty({
    type: [TipPoolShareView],
    nullable: true,
    description: 'Each participant’s share; null while the pool is open',
    example: [{ employeeId: 'emp-0042', employeeName: 'Ana Ruiz', share_cents: 134 }],
  })
  shares: TipPoolShareView[] | null;
}

export class TipPoolTotals {
  @Count(1)
  count: number;

  @Count(0)
  open_count: number;

  @Count(1)
  distributed_count: number;

  @Cents(400, 'What every pool holds')
  total_pooled_cents: number;

  @Cents(402, 'What the distributed pools paid out')
  total_distributed_cents: number;

  @Cents(2, 'What rounding shares up cost the employers, over the distributed pools')
  rounding_adjustment_cents: number;

  @ApiProperty({
    type: [TipPoolSummary],
    description: 'The newest `limit` pools, newest first; the totals above cover every pool',
  })
  recent: TipPoolSummary[];
}

export class TipOnSale {
  @ApiProperty({ type: 'string', pattern: TIP_ID_PATTERN.source, example: TIP_ID_EXAMPLE })
  tip_id: string;

  @ApiProperty({ type: 'string', example: 'emp-0042' })
  employee_id: string;

  @Cents(10_000_000, 'The current amount, after adjustments')
  amount_cents: number;

  @AuditHash('The hash of the entry that recorded the tip')
  audit_hash: string;
}

export class SaleTippedBeyondIt {
  @ApiProperty({ type: 'string', example: 'TXN-2026-11-21-8F3K2Q7M' })
  transaction_id: string;

  @MerchantId()
  merchant_id: string;

  @Cents(1102, "The sale's ledger total: subtotal plus tax")
  sale_total_cents: number;

  @Cents(10_000_000, 'Its tips together, after adjustments')
  tips_total_cents: number;

  @ApiProperty({ type: [TipOnSale], description: 'Its tips, oldest first' })
  tips: TipOnSale[];
}

export class TipsBeyondSale {
  @Count(1, 'Sales flagged, all of them')
  count: number;

  @Cents(2000, 'The floor: tips of a sale are flagged when together they are above both its total and this')
  floor_cents: number;

  @ApiProperty({ type: [SaleTippedBeyondIt], description: 'The newest `limit` of them, newest first' })
  sales: SaleTippedBeyondIt[];
}

/** Tips by method (amounts after adjustments), adjustments, payouts, pools and sales tipped beyond their total. */
export class TipAnalytics {
  @ApiProperty({ type: TipTotals })
  tips: TipTotals;

  @ApiProperty({ type: TipAdjustmentTotals })
  adjustments: TipAdjustmentTotals;

  @ApiProperty({ type: TipPayoutTotals })
  payouts: TipPayoutTotals;

  @ApiProperty({ type: TipPoolTotals })
  pools: TipPoolTotals;

  @ApiProperty({
    type: TipsBeyondSale,
    description:
      'Sales whose tips, together and after adjustments, are more than the sale itself and more than `floor_cents`: a keying error, a tip raised ' +
      'behind the customer’s back, or money passed through tips. A flag to look into, not a refusal. Tips recorded before this check existed carry no sale total and are not measured.',
  })
  tips_beyond_sale: TipsBeyondSale;
}

export class TipAnalyticsResponse extends TipAnalytics {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The merchant asked for; null: every merchant',
    example: 'm-corner-deli-01',
  })
  merchant_id: string | null;
}
