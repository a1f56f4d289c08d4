import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/config';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { wageTheftFlags } from '../read-model/wage-theft-flags';
import { tipsProjector } from '../read-model/tips.projector';
import { readAsOf } from '../../platform/projections/log-position';
import { TipWageTheftQuery } from './tip-wage-theft.query';
import type { TipWageTheftResponse } from '../tip-wage-theft.response.dto';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Flags, each naming the records behind it: downward tip adjustments, employees paid out less than
 * the tips due to them, pools paid to fewer people than put tips in (or never distributed), and
 * declared wages plus tips under the federal minimum.
 */
@QueryHandler(TipWageTheftQuery)
export class TipWageTheftHandler implements IQueryHandler<TipWageTheftQuery, TipWageTheftResponse> {
  constructor(
    private readonly databases: QueryDatabases,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute(query: TipWageTheftQuery): Promise<TipWageTheftResponse> {
    const { merchantId } = query;
    const { db } = await this.databases.for(query);
    const now = this.clock.now();
    const dueBefore = new Date(now.getTime() - this.config.tipPayoutGraceDays * DAY_MS);
    const { result: flags } = await readAsOf(
      db,
      [tipsProjector],
      (tx) => wageTheftFlags(tx, merchantId, dueBefore),
      query.minPosition,
    );
    return {
      merchant_id: merchantId,
      as_of: now.toISOString(),
      due_before: dueBefore.toISOString(),
      payout_grace_days: this.config.tipPayoutGraceDays,
      flag_count: flags.length,
      flags,
    };
  }
}
