import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { instantRange } from '../../platform/instant-range';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { averageCents } from '../override-analysis';
import { overrideReport, overrideReportProjector } from '../read-model/override-report/override-report.projector';
import { readAsOf } from '../../platform/projections/log-position';
import { OverrideReportQuery } from './override-report.query';
import type { OverrideReportResponse } from './override-report.response.dto';

/** Every override with its employee, reason, the calculated and overridden cash totals and the delta between them. */
@QueryHandler(OverrideReportQuery)
export class OverrideReportHandler implements IQueryHandler<OverrideReportQuery, OverrideReportResponse> {
  constructor(private readonly databases: QueryDatabases) {}

  async execute(query: OverrideReportQuery): Promise<OverrideReportResponse> {
    const {
      merchant_id: merchantId = null,
      start_date: startDate = null,
      end_date: endDate = null,
      limit,
      offset,
      min_position: minPosition,
    } = query.request;
    const { db } = await this.databases.for(query);
    const range = instantRange(startDate, endDate);
    const { result, as_of_position: asOfPosition } = await readAsOf(
      db,
      [overrideReportProjector],
      (tx) => overrideReport(tx, { merchantId: merchantId, ...range, limit, offset }),
      minPosition,
    );
    return {
      filters: { merchant_id: merchantId, start_date: startDate, end_date: endDate },
      as_of_position: asOfPosition,
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
