import { PROJECTORS } from '../../src/projectors';
import type { Projector } from '../../src/platform/projections/projector';
import { addToRows } from '../../src/platform/projections/counters';
import { AsyncProjectionRunner, prepareProjections, rebuildProjections } from '../../src/platform/projections/runner';
import type { NewEvent } from '../../src/platform/event-store/event-store.port';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import { FixedClock } from '../support/fixed-clock';
import { dumpReadModels } from '../support/read-models';
import { DRIVERS, createTestDatabase } from '../support/test-database';
import { transactionHistory } from '../support/sale-commands';
import { tipHistory } from '../support/tips';

/** Two small read models, so the mechanism is tested whatever the feature projectors are. */
const streamTotals: Projector = {
  name: 'test-stream-totals',
  version: 1,
  handles: ['Charged', 'Refunded'],
  reset: async (tx) => {
    await tx.query('drop table if exists rm_test_stream_totals');
    await tx.query(
      'create table rm_test_stream_totals (stream_id text primary key, total_cents bigint not null, last_position bigint not null)',
    );
  },
  apply: (events, tx) =>
    addToRows(
      tx,
      'rm_test_stream_totals',
      events.map((e) => ({
        key: { stream_id: e.streamId },
        counters: { total_cents: (e.type === 'Refunded' ? -1 : 1) * Number(e.data.cents) },
        position: e.position,
      })),
    ),
};

const typeCounts: Projector = {
  name: 'test-type-counts',
  version: 1,
  handles: ['Charged', 'Refunded'],
  reset: async (tx) => {
    await tx.query('drop table if exists rm_test_type_counts');
    await tx.query(
      'create table rm_test_type_counts (event_type text primary key, count int not null, last_position bigint not null)',
    );
  },
  apply: (events, tx) =>
    addToRows(
      tx,
      'rm_test_type_counts',
      events.map((e) => ({ key: { event_type: e.type }, counters: { count: 1 }, position: e.position })),
    ),
};

describe.each(DRIVERS)('projections:rebuild on %s', (driver) => {
  it('rebuilds read models equal to those built live', async () => {
    const testDb = await createTestDatabase(driver);
    const db = await testDb.open();
    try {
      const projectors = [...PROJECTORS, streamTotals, typeCounts];
      await migrate(db);
      await prepareProjections(db, projectors);
      const store = new SqlEventStore(db, new FixedClock());
      const runner = new AsyncProjectionRunner(db, projectors, (name, error) => {
        throw new Error(`${name}: ${String(error)}`);
      });
      const event = (type: string, cents: number): NewEvent => ({
        type,
        data: { cents },
        metadata: { schemaVersion: 1 },
      });
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.append(`account-${i % 7}-${i}`, [event('Charged', 100 + i), event('Refunded', i)], {
            expectedRevision: 0,
          }),
        ),
      );
      await store.append('account-x', [event('Ignored', 1)], { expectedRevision: 0 });
      // Real tip events after those: the feature's read models must rebuild to what they were live.
      for (const { streamId, events } of tipHistory())
        await store.append(streamId, events, { expectedRevision: 'any' });
      // And the transaction events: sales with an override, a void and refunds.
      for (const { streamId, events } of transactionHistory())
        await store.append(streamId, events, { expectedRevision: 0 });
      await runner.drain();

      const live = await dumpReadModels(db);
      expect(live.rm_test_stream_totals).toHaveLength(40);
      expect(live.rm_test_type_counts).toEqual(['(Charged,40,79)', '(Refunded,40,80)']);
      expect(live.rm_tips).toHaveLength(3);
      // Four sales, a VOID and two REFUND records.
      expect(live.rm_transactions).toHaveLength(7);
      // The async analytics read models: the merchant's sales rounded alike, its override, its VOID and REFUND records.
      expect(live.rm_risk_cash_roundings).toHaveLength(1);
      expect(live.rm_overrides).toHaveLength(1);
      expect(live.rm_void_records).toHaveLength(3);

      await rebuildProjections(db, projectors);
      expect(await dumpReadModels(db)).toEqual(live);

      const checkpoints = await db.query<{ name: string; position: string }>(
        'select name, position from projection_checkpoints order by name',
      );
      const { position } = await store.head();
      for (const cp of checkpoints) expect(Number(cp.position)).toBe(position);
    } finally {
      await testDb.drop();
    }
  });
});
