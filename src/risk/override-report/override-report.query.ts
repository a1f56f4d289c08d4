import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import { OverrideReportRowDto, OverrideReportSummaryDto } from './override-report.response.dto';
import { AsOfPosition } from '../../platform/as-of-position';
import { PageAnswer } from '../../platform/page.request.dto';
import type { OverrideReportRequest } from './override-report.request.dto';

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
    description: 'Mean delta between calculated and overridden cash totals, cents, rounded half away from zero; null without overrides',
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

export class OverrideReportQuery extends Query<OverrideReportResponse> {
  constructor(readonly request: OverrideReportRequest) {
    super();
  }
}
