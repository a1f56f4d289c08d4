import { CommandStep } from '../../src/platform/command-step';
import type { Decider } from '../../src/platform/decider';
import { IdempotencyStore } from '../../src/platform/idempotency/idempotency';
import { RecordIdTakenError, recordIdPattern, withNewRecordId } from '../../src/platform/ids';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import { FixedClock } from '../support/fixed-clock';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';

/** A record that exists once recorded: deciding on its stream again is refused, as the tip deciders do. */
const recordDecider: Decider<{ id: string }, boolean, { type: 'Recorded'; data: { id: string } }> = {
  initialState: () => false,
  evolve: () => true,
  decide: ({ id }, recorded) => {
    if (recorded) throw new Error(`decided on the existing record ${id}`);
    return [{ type: 'Recorded', data: { id } }];
  },
};
const metadata = { schemaVersion: 1 };

describe.each(DRIVERS)('a freshly drawn record id that is taken, on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;
  let store: SqlEventStore;
  let step: CommandStep;

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
    const clock = new FixedClock();
    store = new SqlEventStore(db, clock);
    step = new CommandStep(store, new IdempotencyStore(db, clock));
  });

  afterEach(() => testDb.drop());

  const record = (id: string) =>
    step.run(
      { stream: `rec-${id}`, decider: recordDecider, command: { id }, metadata, fresh: true },
      (_tx, [stored]) => stored,
    );

  it('is drawn again when its stream exists, and the first id is left as it was', async () => {
    const drawn: string[] = [];
    const stored = await withNewRecordId('REC', new Date('2026-11-25T12:00:00Z'), async (id) => {
      drawn.push(id);
      // Another writer took the first id a moment before this one appends under it.
      if (drawn.length === 1)
        await store.append(`rec-${id}`, [{ type: 'Recorded', data: { id }, metadata }], { expectedRevision: 0 });
      return record(id);
    });
    expect(drawn).toHaveLength(2);
    expect(drawn[0]).not.toBe(drawn[1]);
    drawn.forEach((id) => expect(id).toMatch(recordIdPattern('REC')));
    expect(stored.streamId).toBe(`rec-${drawn[1]}`);
    expect(await store.readStream(`rec-${drawn[0]}`)).toHaveLength(1);
    expect(await store.readStream(`rec-${drawn[1]}`)).toHaveLength(1);
  });

  it('is drawn again when a read model already holds it, and gives up after three draws', async () => {
    const drawn: string[] = [];
    await expect(
      withNewRecordId('REC', new Date('2026-11-25T12:00:00Z'), async (id) => {
        drawn.push(id);
        throw new RecordIdTakenError(id);
      }),
    ).rejects.toBeInstanceOf(RecordIdTakenError);
    expect(drawn).toHaveLength(3);
    expect(new Set(drawn).size).toBe(3);
  });

  it('is not drawn again for any other failure', async () => {
    let calls = 0;
    await expect(
      withNewRecordId('REC', new Date('2026-11-25T12:00:00Z'), async () => {
        calls++;
        throw new Error('the decider refused');
      }),
    ).rejects.toThrow('the decider refused');
    expect(calls).toBe(1);
  });
});
