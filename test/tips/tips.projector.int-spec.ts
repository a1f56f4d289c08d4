import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import { FixedClock } from '../support/fixed-clock';
import { dumpReadModels } from '../support/read-models';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import { tipHistory } from '../support/tips';
import { applyBatch, catchUp, prepareProjections, rebuildProjections } from '../../src/platform/projections/runner';
import { wageTheftFlags } from '../../src/tips/read-model/wage-theft-flags';
import { tipAnalytics } from '../../src/tips/read-model/tip-summary';
import { findTip, tipsProjector } from '../../src/tips/read-model/tips.projector';

const AT = new Date('2026-11-21T12:00:00.000Z');

describe.each(DRIVERS)('tips projector on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;
  let store: SqlEventStore;
  const tipRows = () => dumpReadModels(db);

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
    await prepareProjections(db, [tipsProjector]);
    store = new SqlEventStore(db, new FixedClock(AT));
    for (const { streamId, events } of tipHistory('m-1'))
      await store.append(streamId, events, { expectedRevision: 'any' });
    // Built after the append: brought up to the log as the async runner would.
    await catchUp(db, [tipsProjector]);
  });

  afterEach(() => testDb.drop());

  it('holds each tip at its current amount, with its history and pool', async () => {
    const tip = await findTip(db, 'TIP-m-1-1');
    expect(tip).toMatchObject({ amount_cents: 700, original_amount_cents: 1000, pool_id: null, method: 'cash' });
    expect(tip!.history.map((h) => h.event)).toEqual(['TipRecorded', 'TipAdjusted']);
    expect(await findTip(db, 'TIP-m-1-2')).toMatchObject({ pool_id: 'POOL-m-1-1', amount_cents: 500 });
  });

  it('sums tips, adjustments, payouts and pools', async () => {
    const analytics = await tipAnalytics(db, 'm-1', 10);
    expect(analytics.tips).toMatchObject({
      count: 3,
      total_cents: 1501,
      by_method: { cash: { count: 1, total_cents: 700 }, credit_card: { count: 2, total_cents: 801 } },
    });
    expect(analytics.adjustments).toEqual({ count: 1, upward_count: 0, downward_count: 1, net_change_cents: -300 });
    expect(analytics.payouts).toMatchObject({ count: 1, total_cents: 600 });
    expect(analytics.pools).toMatchObject({
      count: 1,
      distributed_count: 1,
      total_pooled_cents: 801,
      total_distributed_cents: 801,
      rounding_adjustment_cents: 0,
    });
    expect((await tipAnalytics(db, 'm-other', 10)).tips.count).toBe(0);
  });

  it('flags the cut tip, the unpaid remainder once due, and the check under the federal minimum', async () => {
    const types = async (dueBefore: Date) =>
      (await wageTheftFlags(db, null, dueBefore)).map((flag) => [flag.type, flag.employee_id]);
    expect(await types(new Date(AT.getTime() - 1))).toEqual([
      ['DOWNWARD_TIP_ADJUSTMENT', 'e-1'],
      ['BELOW_FEDERAL_MINIMUM_WAGE', 'e-5'],
    ]);
    expect(await types(AT)).toEqual([
      ['DOWNWARD_TIP_ADJUSTMENT', 'e-1'],
      ['PAYOUT_SHORTFALL', 'e-1'],
      ['BELOW_FEDERAL_MINIMUM_WAGE', 'e-5'],
    ]);
  });

  it('changes nothing when the events are applied again', async () => {
    const before = await tipRows();
    const events = await store.readAll(1, 1000);
    await db.transaction((tx) => applyBatch(tx, [tipsProjector], events));
    expect(await tipRows()).toEqual(before);
  });

  it('rebuilds from the log to the same rows', async () => {
    const live = await tipRows();
    expect(live.rm_tips).toHaveLength(3);
    await rebuildProjections(db, [tipsProjector]);
    expect(await tipRows()).toEqual(live);
  });
});
