import { saleStream, transactionHistory } from '../support/sale-commands';
import { withProjectedDatabase } from '../support/projected-database';
import { DRIVERS } from '../support/test-database';
import {
  merchantRiskProjector,
  roundingActivity,
} from '../../src/risk/read-model/merchant-risk/merchant-risk.projector';

/** m-1: the four sales of the history ($10.03, 2 cents up), one rounded up by an explicit mode where the rule rounds down, one by card. m-2: one sale rounded down. */
const STREAMS = [
  ...transactionHistory('m-1'),
  saleStream('m-1', 'TXN-2026-11-21-EXPL0001', {
    subtotal_cents: 1000,
    tax_total_cents: 1,
    cash_rounding_mode: 'mandatory_round_up',
  }),
  saleStream('m-1', 'TXN-2026-11-21-CARD0001', { payment_method: 'card' }),
  saleStream('m-2', 'TXN-2026-11-21-DOWN0001', { subtotal_cents: 1000, tax_total_cents: 6 }),
];

describe.each(DRIVERS)('merchant-risk projector on %s', (driver) => {
  const projected = withProjectedDatabase(driver, [merchantRiskProjector], STREAMS);

  it('counts each merchant’s sales, and its cash sales by rule mode, penny ending and direction', async () => {
    const activity = await roundingActivity(projected().db, null);
    expect(Object.fromEntries(activity)).toEqual({
      'm-1': {
        sales: 6,
        cash_sales: 5,
        // 4 × 2 cents, and $10.01 up to $10.05.
        net_rounding_cents: 12,
        explicit_mode_sales: 1,
        // Swedish rounding would have taken $10.00: 5 cents more.
        favoured_sales: 1,
        favoured_cents: 5,
        cells: [
          { rule_mode: 'swedish_rounding', ending: 1, direction: 'up', sales: 1 },
          { rule_mode: 'swedish_rounding', ending: 3, direction: 'up', sales: 4 },
        ],
      },
      'm-2': {
        sales: 1,
        cash_sales: 1,
        net_rounding_cents: -1,
        explicit_mode_sales: 0,
        favoured_sales: 0,
        favoured_cents: 0,
        cells: [{ rule_mode: 'swedish_rounding', ending: 6, direction: 'down', sales: 1 }],
      },
    });
    expect([...(await roundingActivity(projected().db, 'm-2')).keys()]).toEqual(['m-2']);
  });
});
