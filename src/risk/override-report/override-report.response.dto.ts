import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { AsOfPosition } from '../../platform/as-of-position';
import { HashProperty } from '../../platform/openapi/hash-property';
import { PageAnswer } from '../../platform/page.request.dto';
import type { OverrideReportRow, OverrideReportSummary } from '../read-model/override-report/override-report.projector';
import { OverrideReasonCounts } from '../risk-analysis.response.dto';
import { OVERRIDE_REASONS, type OverrideReason } from '../../transactions/transaction.events';

@ApiSchema({ name: 'OverrideReportRow' })
export class OverrideReportRowDto implements OverrideReportRow {
  @ApiProperty({ description: 'The override record’s id', example: 'OVR-2026-11-21-3F8K2M1Q' })
  id: string;

  @ApiProperty({ example: 'm-quickstop-042' })
  merchant_id: string;

  @ApiProperty({ description: 'The sale overridden', example: 'TXN-2026-11-21-8KQ2M4PZ' })
  transaction_id: string;

  @ApiProperty({ description: 'Who overrode', example: 'emp-7' })
  employee_id: string;

  @ApiProperty({ description: 'As sent with the override, verbatim', example: 'J. Doe' })
  employee_name: string;

  @ApiProperty({ enum: OVERRIDE_REASONS, example: 'manager-discretion' })
  reason: OverrideReason;

  @ApiProperty({ type: 'integer', description: 'The cash total the rule gave the sale, cents', example: 1005 })
  calculated_cash_total_cents: number;

  @ApiProperty({
    type: 'integer',
    description: 'The cash total before this override (an earlier override’s, or the calculated one), cents',
    example: 1005,
  })
  previous_cash_total_cents: number;

  @ApiProperty({ type: 'integer', description: 'The cash total this override set, cents', example: 1010 })
  new_cash_total_cents: number;

  @ApiProperty({
    type: 'integer',
    description:
      'New cash total minus the calculated one, cents: positive when the customer paid more than the calculation',
    example: 5,
  })
  delta_cents: number;

  @ApiProperty({
    format: 'date-time',
    description: 'When the override was recorded (UTC); what the date filters use',
    example: '2026-11-21T15:02:11.000Z',
  })
  created_at: string;

  @HashProperty({
    description: 'The hash of the override’s entry in the audit log',
    example: '9f2c4e1a7b3d5f60812a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d',
  })
  auditHash: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Its position in the audit log', example: 18_190 })
  chain_position: number;
}

export class OverrideReportSummaryDto implements OverrideReportSummary {
  @ApiProperty({ type: 'integer', minimum: 0, example: 2 })
  overrides: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Overrides above the calculated cash total', example: 2 })
  raised: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Overrides below it', example: 0 })
  lowered: number;

  @ApiProperty({ type: 'integer', description: 'Σ delta_cents, cents', example: 9 })
  total_delta_cents: number;

  @ApiProperty({ type: OverrideReasonCounts, description: 'Overrides by reason code' })
  by_reason: Record<OverrideReason, number>;
}

/** The filters applied, as given; null where absent. */
export class OverrideReportFilters {
  @ApiProperty({ type: 'string', nullable: true, example: 'm-quickstop-042' })
  merchant_id: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '2026-11-01' })
  start_date: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  end_date: string | null;
}

/** Over every override the filters match, whatever the page. */
export class OverrideReportTotals extends OverrideReportSummaryDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Mean delta between calculated and overridden cash totals, cents, rounded half away from zero; null without overrides',
    example: 5,
  })
  average_delta_cents: number | null;
}

export class OverrideReportResponse extends PageAnswer {
  @ApiProperty({ description: 'The filters applied, as given; null where absent' })
  filters: OverrideReportFilters;

  @AsOfPosition()
  as_of_position: number;

  @ApiProperty({ description: 'Over every override the filters match, whatever the page' })
  summary: OverrideReportTotals;

  /** Oldest first. */
  @ApiProperty({ type: [OverrideReportRowDto], description: 'A page of the overrides, oldest first' })
  overrides: OverrideReportRowDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Overrides matching the filters, in all', example: 2 })
  total: number;
}
