import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { addVoidActivities, voidRates } from '../void-analysis';
import { readAsOf } from '../../platform/projections/log-position';
import { voidActivity, voidAnalyticsProjector } from '../read-model/void-analytics/void-analytics.projector';
import { VoidAnalyticsQuery } from './void-analytics.query';
import type { MerchantVoidRates, VoidAnalyticsResponse } from './void-analytics.response.dto';

/** Void counts, rates and amounts, refunds and their normalization checks: platform totals and merchant by merchant. */
@QueryHandler(VoidAnalyticsQuery)
export class VoidAnalyticsHandler implements IQueryHandler<VoidAnalyticsQuery, VoidAnalyticsResponse> {
  constructor(
    private readonly databases: QueryDatabases,
    private readonly config: AppConfig,
  ) {}

  async execute(query: VoidAnalyticsQuery): Promise<VoidAnalyticsResponse> {
    const { request } = query;
    const { db } = await this.databases.for(query);
    const shift = this.config.shiftChanges;
    const merchantId = request.merchant_id ?? null;
    const { result: activities, as_of_position: asOfPosition } = await readAsOf(
      db,
      [voidAnalyticsProjector],
      (tx) => voidActivity(tx, merchantId, shift),
      request.min_position,
    );
    const merchants: MerchantVoidRates[] = [...activities].map(([id, activity]) => {
      const {
        voids_by_hour: voidsByHour,
        voids_by_reason: voidsByReason,
        shift_change: shiftChange,
        top_employee: topEmployee,
        ...rates
      } = voidRates(activity, shift);
      return { merchant_id: id, ...rates };
    });
    merchants.sort((a, b) => (b.void_rate ?? -1) - (a.void_rate ?? -1) || a.merchant_id.localeCompare(b.merchant_id));
    return {
      merchant_id: merchantId,
      as_of_position: asOfPosition,
      totals: voidRates(addVoidActivities([...activities.values()]), shift),
      merchants: merchants.slice(request.offset, request.offset + request.limit),
      merchant_count: merchants.length,
      limit: request.limit,
      offset: request.offset,
    };
  }
}
