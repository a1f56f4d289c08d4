import type { Projector } from '../../src/platform/projections/projector';
import { applyBatch, catchUp, prepareProjections, rebuildProjections } from '../../src/platform/projections/runner';
import type { NewEvent } from '../../src/platform/event-store/event-store.port';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import { FixedClock } from './fixed-clock';
import { dumpReadModels } from './read-models';
import { createTestDatabase, type Driver } from './test-database';

export interface ProjectedDatabase {
  db: Database;
  /** Every row of the projectors' read models. */
  rows(): Promise<Record<string, unknown[]>>;
  /** Feeds every event of the log to the projectors once more, as a replay after a crash would. */
  applyAgain(): Promise<void>;
  rebuild(): Promise<void>;
  drop(): Promise<void>;
}

/** A database of the test's own whose log holds the streams, with the projectors' read models built from it, async ones caught up. */
export async function projectedDatabase(
  driver: Driver,
  projectors: Projector[],
  streams: { streamId: string; events: NewEvent[] }[],
): Promise<ProjectedDatabase> {
  const testDb = await createTestDatabase(driver);
  const db = await testDb.open();
  await migrate(db);
  await prepareProjections(db, projectors);
  const store = new SqlEventStore(db, new FixedClock());
  for (const { streamId, events } of streams) await store.append(streamId, events, { expectedRevision: 'any' });
  for (const p of projectors) await catchUp(db, [p]);
  return {
    db,
    rows: () => dumpReadModels(db),
    applyAgain: async () => {
      const events = await store.readAll(1, 10_000);
      await db.transaction((tx) => applyBatch(tx, projectors, events));
    },
    rebuild: () => rebuildProjections(db, projectors),
    drop: () => testDb.drop(),
  };
}

/**
 * In the calling `describe`: a projected database of its own for each test (the getter returned),
 * and the two tests every projector owes: the events applied again change nothing, and a rebuild
 * from the log gives the rows built live.
 */
export function withProjectedDatabase(
  driver: Driver,
  projectors: Projector[],
  streams: { streamId: string; events: NewEvent[] }[],
): () => ProjectedDatabase {
  let projected: ProjectedDatabase;
  beforeEach(async () => {
    projected = await projectedDatabase(driver, projectors, streams);
  });
  afterEach(() => projected.drop());

  it('changes nothing when the events are applied again', async () => {
    const before = await projected.rows();
    await projected.applyAgain();
    expect(await projected.rows()).toEqual(before);
  });

  it('rebuilds from the log to the same rows', async () => {
    const live = await projected.rows();
    await projected.rebuild();
    expect(await projected.rows()).toEqual(live);
  });

  return () => projected;
}
