import { Query } from '@nestjs/cqrs';
import type { OverrideReportRequest } from './override-report.request.dto';
import { OverrideReportResponse } from './override-report.response.dto';

export class OverrideReportQuery extends Query<OverrideReportResponse> {
  constructor(readonly request: OverrideReportRequest) {
    super();
  }
}
