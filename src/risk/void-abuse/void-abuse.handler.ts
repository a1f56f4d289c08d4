import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig, type ShiftChanges } from '../../platform/config/config';
import type { Sql } from '../../platform/event-store/sql';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { voidRates, voidSignals, type VoidActivity, type VoidSignalCode } from '../void-analysis';
import { readAsOf } from '../../platform/projections/log-position';
import {
  voidActivity,
  voidAnalyticsProjector,
  voidRecordIds,
  type RecordCriteria,
} from '../read-model/void-analytics/void-analytics.projector';
import { VoidAbuseQuery } from './void-abuse.query';
import { EVIDENCE_LIMIT, type VoidAbuseFlag, type VoidAbuseResponse } from './void-abuse.response.dto';

/** The records each flag rests on. */
const EVIDENCE: Record<VoidSignalCode, (activity: VoidActivity, shift: ShiftChanges) => RecordCriteria> = {
  HIGH_VOID_RATE: () => ({ type: 'VOID' }),
  REPEATED_NORMALIZATION_FAILURES: () => ({ type: 'REFUND', normalizationFailed: true }),
  VOIDS_AT_SHIFT_CHANGE: (_, shift) => ({ type: 'VOID', nearShiftChange: shift }),
  VOIDS_CONCENTRATED_ON_EMPLOYEE: (activity) => ({ type: 'VOID', employeeId: activity.employees[0].employee_id }),
};

/** The void signals of the merchant risk score, merchant by merchant, each with its evidence. */
@QueryHandler(VoidAbuseQuery)
export class VoidAbuseHandler implements IQueryHandler<VoidAbuseQuery, VoidAbuseResponse> {
  constructor(
    private readonly databases: QueryDatabases,
    private readonly config: AppConfig,
  ) {}

  async execute(query: VoidAbuseQuery): Promise<VoidAbuseResponse> {
    const { merchantId, minPosition } = query;
    const { db } = await this.databases.for(query);
    const shift = this.config.shiftChanges;
    const { result: flags, as_of_position: asOfPosition } = await readAsOf(
      db,
      [voidAnalyticsProjector],
      (tx) => this.flags(tx, merchantId, shift),
      minPosition,
    );
    return {
      merchant_id: merchantId,
      as_of_position: asOfPosition,
      shift_change: { hours: [...shift.hours], window_minutes: shift.windowMinutes },
      flag_count: flags.length,
      flags: flags.sort((a, b) => b.points - a.points || a.merchant_id.localeCompare(b.merchant_id)),
    };
  }

  private async flags(tx: Sql, merchantId: string | null, shift: ShiftChanges): Promise<VoidAbuseFlag[]> {
    const flags: VoidAbuseFlag[] = [];
    for (const [id, activity] of await voidActivity(tx, merchantId, shift)) {
      for (const signal of voidSignals(voidRates(activity, shift))) {
        const criteria = EVIDENCE[signal.code](activity, shift);
        const { ids, count } = await voidRecordIds(tx, id, criteria, EVIDENCE_LIMIT);
        flags.push({ merchant_id: id, ...signal, evidence: { record_type: criteria.type, ids, count } });
      }
    }
    return flags;
  }
}
