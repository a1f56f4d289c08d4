import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { instantRange } from '../../platform/instant-range';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { averageCents } from '../override-analysis';
import { overrideReport, overrideReportProjector } from '../read-model/override-report/override-report.projector';
import { readAsOf } from '../../platform/projections/runner';
import { OverrideReportQuery } from './override-report.query';
import type { OverrideReportResponse } from './override-report.response.dto';

/** Every override with its employee, reason, the calculated and overridden cash totals and the delta between them. */
@QueryHandler(OverrideReportQuery)
export class OverrideReportHandler implements IQueryHandler<OverrideReportQuery, OverrideReportResponse> {
  constructor(private readonly databases: QueryDatabases) {}

  async execute(query: OverrideReportQuery): Promise<OverrideReportResponse> {
    const { merchant_id = null, start_date = null, end_date = null, limit, offset } = query.request;
    const { db } = await this.databases.for(query);
    const range = instantRange(start_date, end_date);
    const { result, as_of_position } = await readAsOf(db, [overrideReportProjector], (tx) =>
      overrideReport(tx, { merchantId: merchant_id, ...range, limit, offset }),
    );
    return {
      filters: { merchant_id, start_date, end_date },
      as_of_position,
      summary: {
        ...result.summary,
        average_delta_cents: averageCents(result.summary.total_delta_cents, result.summary.overrides),
      },
      overrides: result.overrides,
      total: result.total,
      limit,
      offset,
    };
  }
}
