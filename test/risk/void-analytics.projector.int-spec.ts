import { NO_VOIDS } from '../../src/risk/void-analysis';
import { refundCommand, saleStream, transactionHistory, voidCommand } from '../support/sale-commands';
import { withProjectedDatabase } from '../support/projected-database';
import { DRIVERS } from '../support/test-database';
import {
  voidActivity,
  voidAnalyticsProjector,
  voidRecordIds,
} from '../../src/risk/read-model/void-analytics/void-analytics.projector';

const SHIFTS = { hours: [6, 14, 22], windowMinutes: 30 };
/**
 * m-1: the history (four $10.05 sales, one voided at 12:10 by e-2, one refunded in two parts that
 * pass the normalization check), a refund of $5.01 that fails it, and a void at 13:55 by e-4.
 * m-2: a void at 22:20.
 */
const STREAMS = [
  ...transactionHistory('m-1'),
  saleStream('m-1', 'TXN-2026-11-21-FAIL0001', {}, (saleId) => [refundCommand(saleId, 'TXN-2026-11-21-FAILREF1', 501)]),
  saleStream('m-1', 'TXN-2026-11-21-SHIFT001', {}, (saleId) => [
    voidCommand(saleId, 'TXN-2026-11-21-SHIFTVD1', {
      now: '2026-11-21T13:55:00.000Z',
      voided_by: 'e-4',
      void_reason: 'duplicate_transaction',
    }),
  ]),
  saleStream('m-2', 'TXN-2026-11-21-OTHER001', {}, (saleId) => [
    voidCommand(saleId, 'TXN-2026-11-21-OTHERVD1', { now: '2026-11-21T22:20:00.000Z' }),
  ]),
];

describe.each(DRIVERS)('void-analytics projector on %s', (driver) => {
  const projected = withProjectedDatabase(driver, [voidAnalyticsProjector], STREAMS);

  it('counts each merchant’s sales, voids, refunds and normalization failures, voids by hour, reason and employee', async () => {
    const activity = await voidActivity(projected().db, null, SHIFTS);
    const byHour = (hours: number[]) => NO_VOIDS.voids_by_hour.map((_, hour) => hours.filter((h) => h === hour).length);
    expect(activity.get('m-1')).toEqual({
      sales: 6,
      sales_cents: 6030,
      voids: 2,
      voided_cents: 2010,
      refunds: 3,
      // $5.05 + $5.00, and $5.01 handed back as $5.00.
      refunded_cents: 1505,
      normalization_failures: 1,
      voids_by_hour: byHour([12, 13]),
      voids_by_reason: { ...NO_VOIDS.voids_by_reason, pricing_error: 1, duplicate_transaction: 1 },
      employees: [
        { employee_id: 'e-2', voids: 1 },
        { employee_id: 'e-4', voids: 1 },
      ],
      near_shift_change: 1,
    });
    expect(activity.get('m-2')).toMatchObject({
      sales: 1,
      voids: 1,
      voids_by_hour: byHour([22]),
      near_shift_change: 1,
    });
  });

  it('counts voids at a shift change as the configuration has them, when read', async () => {
    const noon = { hours: [12], windowMinutes: 15 };
    const activity = await voidActivity(projected().db, null, noon);
    expect([activity.get('m-1')!.near_shift_change, activity.get('m-2')!.near_shift_change]).toEqual([1, 0]);
    expect(await voidRecordIds(projected().db, 'm-1', { type: 'VOID', nearShiftChange: noon }, 10)).toEqual({
      ids: ['TXN-2026-11-21-HISTVOID'],
      count: 1,
    });
  });

  it('names the records behind each kind of flag, newest first', async () => {
    const ids = (criteria: Parameters<typeof voidRecordIds>[2], limit = 10) =>
      voidRecordIds(projected().db, 'm-1', criteria, limit);
    expect(await ids({ type: 'VOID' }, 1)).toEqual({ ids: ['TXN-2026-11-21-SHIFTVD1'], count: 2 });
    expect(await ids({ type: 'VOID', nearShiftChange: SHIFTS })).toEqual({
      ids: ['TXN-2026-11-21-SHIFTVD1'],
      count: 1,
    });
    expect(await ids({ type: 'VOID', employeeId: 'e-2' })).toEqual({ ids: ['TXN-2026-11-21-HISTVOID'], count: 1 });
    expect(await ids({ type: 'REFUND', normalizationFailed: true })).toEqual({
      ids: ['TXN-2026-11-21-FAILREF1'],
      count: 1,
    });
    expect(await ids({ type: 'VOID', employeeId: 'nobody' })).toEqual({ ids: [], count: 0 });
  });
});
