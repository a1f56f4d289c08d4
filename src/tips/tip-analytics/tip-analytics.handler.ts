import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { tipAnalytics } from '../read-model/tip-summary';
import { tipsProjector } from '../read-model/tips.projector';
import { readAsOf } from '../../platform/projections/log-position';
import { TipAnalyticsQuery } from './tip-analytics.query';
import type { TipAnalyticsResponse } from '../tip-analytics.response.dto';

/** Totals by tip method (amounts after adjustments), averages, payouts and pool distribution summaries. */
@QueryHandler(TipAnalyticsQuery)
export class TipAnalyticsHandler implements IQueryHandler<TipAnalyticsQuery, TipAnalyticsResponse> {
  constructor(private readonly databases: QueryDatabases) {}

  async execute(query: TipAnalyticsQuery): Promise<TipAnalyticsResponse> {
    const { db } = await this.databases.for(query);
    const { result } = await readAsOf(
      db,
      [tipsProjector],
      (tx) => tipAnalytics(tx, query.merchantId, query.poolLimit),
      query.minPosition,
    );
    return { merchant_id: query.merchantId, ...result };
  }
}
