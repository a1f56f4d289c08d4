import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { tipAnalytics } from '../read-model/tip-summary';
import { TipAnalyticsQuery } from './tip-analytics.query';
import type { TipAnalyticsResponse } from '../tip-analytics.response.dto';

/** Totals by tip method (amounts after adjustments), averages, payouts and pool distribution summaries. */
@QueryHandler(TipAnalyticsQuery)
export class TipAnalyticsHandler implements IQueryHandler<TipAnalyticsQuery, TipAnalyticsResponse> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ merchantId, poolLimit }: TipAnalyticsQuery): Promise<TipAnalyticsResponse> {
    return { merchant_id: merchantId, ...(await tipAnalytics(this.db, merchantId, poolLimit)) };
  }
}
