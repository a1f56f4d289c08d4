import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import type { Database } from '../platform/event-store/sql';
import { merchantRiskProjector, roundingActivity } from './read-model/merchant-risk/merchant-risk.projector';
import { overrideActivity, overrideReportProjector } from './read-model/override-report/override-report.projector';
import { readAsOf } from '../platform/projections/log-position';
import { voidActivity, voidAnalyticsProjector } from './read-model/void-analytics/void-analytics.projector';
import type { MerchantActivity } from './merchant-score';
import { NO_OVERRIDES } from './override-analysis';
import { NO_ROUNDING } from './rounding-analysis';
import { NO_VOIDS } from './void-analysis';

export const NO_ACTIVITY: MerchantActivity = { rounding: NO_ROUNDING, overrides: NO_OVERRIDES, voids: NO_VOIDS };

/** What the merchant profiles are scored on, read from the three async read models, never from the log. */
@Injectable()
export class MerchantActivities {
  constructor(private readonly config: AppConfig) {}

  /**
   * One merchant's activity, or every merchant's (`null`), by merchant id, and the log position it is
   * current as of, from `db` (the primary or the replica), once at `minPosition` (readAsOf).
   */
  async read(
    db: Database,
    merchantId: string | null,
    minPosition?: number,
  ): Promise<{ activities: Map<string, MerchantActivity>; as_of_position: number }> {
    const { result, as_of_position: asOfPosition } = await readAsOf(
      db,
      [merchantRiskProjector, overrideReportProjector, voidAnalyticsProjector],
      async (tx) => {
        const rounding = await roundingActivity(tx, merchantId);
        const overrides = await overrideActivity(tx, merchantId);
        const voids = await voidActivity(tx, merchantId, this.config.shiftChanges);
        const ids = new Set([...rounding.keys(), ...overrides.keys(), ...voids.keys()]);
        return new Map<string, MerchantActivity>(
          [...ids].map((id) => [
            id,
            {
              rounding: rounding.get(id) ?? NO_ROUNDING,
              overrides: overrides.get(id) ?? NO_OVERRIDES,
              voids: voids.get(id) ?? NO_VOIDS,
            },
          ]),
        );
      },
      minPosition,
    );
    return { activities: result, as_of_position: asOfPosition };
  }
}
