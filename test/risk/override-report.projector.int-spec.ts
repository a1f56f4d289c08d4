import { overrideCommand, saleStream, transactionHistory } from '../support/sale-commands';
import { withProjectedDatabase } from '../support/projected-database';
import { DRIVERS } from '../support/test-database';
import {
  overrideActivity,
  overrideReport,
  overrideReportProjector,
} from '../../src/risk/read-model/override-report/override-report.projector';

const NEXT_DAY = '2026-11-22T09:00:00.000Z';
/**
 * m-1: Ann's override of the history ($10.05 calculated, $10.00 after), then Bo raises another sale
 * twice the next day, renamed on the second. m-2: one override.
 */
const STREAMS = [
  ...transactionHistory('m-1'),
  saleStream('m-1', 'TXN-2026-11-21-RAISE001', {}, (saleId) => [
    overrideCommand(saleId, 'OVR-2026-11-22-RAISE001', 1006, {
      employee_id: 'e-3',
      employee_name: 'Bo',
      reason: 'customer-request',
      now: NEXT_DAY,
    }),
    overrideCommand(saleId, 'OVR-2026-11-22-RAISE002', 1007, {
      employee_id: 'e-3',
      employee_name: 'Bo B.',
      reason: 'manager-discretion',
      now: NEXT_DAY,
    }),
  ]),
  saleStream('m-2', 'TXN-2026-11-21-OTHER001', {}, (saleId) => [
    overrideCommand(saleId, 'OVR-2026-11-21-OTHER001', 1000),
  ]),
];

describe.each(DRIVERS)('override-report projector on %s', (driver) => {
  const projected = withProjectedDatabase(driver, [overrideReportProjector], STREAMS);

  it('adds up each merchant’s overrides by reason and employee, deltas against the calculation', async () => {
    const activity = await overrideActivity(projected().db, 'm-1');
    expect([...activity.keys()]).toEqual(['m-1']);
    expect(activity.get('m-1')).toEqual({
      overrides: 3,
      raised: 2,
      lowered: 1,
      // −5, +1 and +2 against the calculated $10.05: the second override of a sale is measured from the calculation too.
      total_delta_cents: -2,
      by_reason: { 'customer-request': 1, 'manager-discretion': 1, 'pricing-error': 1, 'system-error': 0 },
      employees: [
        { employee_id: 'e-3', employee_name: 'Bo B.', overrides: 2, total_delta_cents: 3 },
        { employee_id: 'e-1', employee_name: 'Ann', overrides: 1, total_delta_cents: -5 },
      ],
    });
  });

  it('reports every override with its employee, reason, calculated and new cash totals, filtered and paged', async () => {
    const all = await overrideReport(projected().db, { merchantId: null, limit: 100, offset: 0 });
    expect(all.total).toBe(4);
    expect(all.summary).toEqual({
      overrides: 4,
      raised: 2,
      lowered: 2,
      total_delta_cents: -7,
      by_reason: { 'customer-request': 1, 'manager-discretion': 1, 'pricing-error': 2, 'system-error': 0 },
    });
    const nextDay = await overrideReport(projected().db, {
      merchantId: 'm-1',
      from: new Date(NEXT_DAY),
      limit: 1,
      offset: 1,
    });
    expect(nextDay).toMatchObject({ total: 2, summary: { overrides: 2, total_delta_cents: 3 } });
    expect(nextDay.overrides).toEqual([
      {
        id: 'OVR-2026-11-22-RAISE002',
        merchant_id: 'm-1',
        transaction_id: 'TXN-2026-11-21-RAISE001',
        employee_id: 'e-3',
        employee_name: 'Bo B.',
        reason: 'manager-discretion',
        calculated_cash_total_cents: 1005,
        previous_cash_total_cents: 1006,
        new_cash_total_cents: 1007,
        delta_cents: 2,
        created_at: NEXT_DAY,
        auditHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        chain_position: expect.any(Number),
      },
    ]);
    expect(
      (await overrideReport(projected().db, { merchantId: 'm-1', before: new Date(NEXT_DAY), limit: 100, offset: 0 }))
        .total,
    ).toBe(1);
  });
});
