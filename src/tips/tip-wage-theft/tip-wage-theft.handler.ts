import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/config';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { wageTheftFlags } from '../read-model/wage-theft-flags';
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
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute({ merchantId }: TipWageTheftQuery): Promise<TipWageTheftResponse> {
    const now = this.clock.now();
    const dueBefore = new Date(now.getTime() - this.config.tipPayoutGraceDays * DAY_MS);
    const flags = await wageTheftFlags(this.db, merchantId, dueBefore);
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
