import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import type { MerchantOnboarded } from '../../src/merchants/merchant.events';
import { FixedClock } from '../support/fixed-clock';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import { applyBatch, catchUp, prepareProjections, rebuildProjections } from '../../src/platform/projections/runner';
import { merchantsProjector } from '../../src/merchants/read-model/merchants.projector';

const onboarded = (merchantId: string, partnerId: string | null): MerchantOnboarded => ({
  type: 'MerchantOnboarded',
  data: {
    merchantId,
    name: `Shop ${merchantId}`,
    environment: 'sandbox',
    partnerId,
    onboardedAt: '2026-11-21T12:00:00.000Z',
  },
});

describe.each(DRIVERS)('merchants projector on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;
  let store: SqlEventStore;
  const rows = () => db.query('select * from rm_merchants order by merchant_id');

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
    await prepareProjections(db, [merchantsProjector]);
    store = new SqlEventStore(db, new FixedClock());
    for (const event of [onboarded('m-1', null), onboarded('m-2', 'p-1')]) {
      await store.append(`merchant-${event.data.merchantId}`, [{ ...event, metadata: { schemaVersion: 1 } }], {
        expectedRevision: 0,
      });
    }
    // Built after the append: brought up to the log as the async runner would.
    await catchUp(db, [merchantsProjector]);
  });

  afterEach(() => testDb.drop());

  it('holds each merchant with its environment and partner', async () => {
    expect(await rows()).toEqual([
      {
        merchant_id: 'm-1',
        name: 'Shop m-1',
        environment: 'sandbox',
        partner_id: null,
        onboarded_at: new Date('2026-11-21T12:00:00.000Z'),
      },
      {
        merchant_id: 'm-2',
        name: 'Shop m-2',
        environment: 'sandbox',
        partner_id: 'p-1',
        onboarded_at: new Date('2026-11-21T12:00:00.000Z'),
      },
    ]);
  });

  it('changes nothing when the events are applied again', async () => {
    const before = await rows();
    const events = await store.readAll(1, 100);
    await db.transaction((tx) => applyBatch(tx, [merchantsProjector], events));
    expect(await rows()).toEqual(before);
  });

  it('rebuilds from the log to the same rows', async () => {
    const live = await rows();
    await rebuildProjections(db, [merchantsProjector]);
    expect(await rows()).toEqual(live);
  });
});
