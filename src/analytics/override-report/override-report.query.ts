import { Query } from '@nestjs/cqrs';
import type { OverrideReportRow, OverrideReportSummary } from '../../../projections/override-report/override-report.projector';
import type { OverrideReportRequest } from './override-report.request.dto';

export interface OverrideReportResponse {
  filters: { merchant_id: string | null; start_date: string | null; end_date: string | null };
  as_of_position: number;
  /** Over every override the filters match, whatever the page. */
  summary: OverrideReportSummary & { average_delta_cents: number | null };
  /** Oldest first. */
  overrides: OverrideReportRow[];
  total: number;
  limit: number;
  offset: number;
}

export class OverrideReportQuery extends Query<OverrideReportResponse> {
  constructor(readonly request: OverrideReportRequest) {
    super();
  }
}
