import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import type { Database } from '../../src/platform/event-store/sql';
import type { JurisdictionRule } from '../../src/rules/jurisdiction-rule';
import { loadSeeds } from '../../src/jurisdiction/seed-loader';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import {
  jurisdictionRulesProjector as projector,
  readRecordedRules,
} from '../../src/jurisdiction/read-model/jurisdiction-rules.projector';

const arizona = loadSeeds().rules.find((rule) => rule.lookup_key === 'AZ')!;

function changed(position: number, rule: JurisdictionRule): StoredEvent {
  return {
    position,
    entryId: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    streamId: `jurisdictionRule-${rule.lookup_key}`,
    streamRevision: position,
    type: 'JurisdictionRuleChanged',
    data: { rule },
    metadata: { schemaVersion: 1 },
    recordedAt: '2026-10-01T12:00:00.000Z',
    prevHash: '0'.repeat(64),
    hash: String(position).repeat(64).slice(0, 64),
  };
}

describe.each(DRIVERS)('jurisdiction-rules projector on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await projector.reset(db);
  });

  afterEach(() => testDb.drop());

  it('keeps one row per rule version, the latest change of it', async () => {
    const amended = { ...arizona, notes: 'amended' };
    const later = { ...arizona, effective_date: '2027-01-01', status: 'failed' as const };
    // One batch, as a replay reads them: the same version twice in it.
    await projector.apply([changed(3, arizona), changed(5, later), changed(8, amended)], db);
    expect(await readRecordedRules(db, 0)).toEqual([
      { rule: later, position: 5 },
      { rule: amended, position: 8 },
    ]);
    expect(await readRecordedRules(db, 5)).toEqual([{ rule: amended, position: 8 }]);
  });

  it('changes nothing when an event is applied again, or an older one after a newer', async () => {
    const amended = { ...arizona, notes: 'amended' };
    await projector.apply([changed(3, arizona)], db);
    await projector.apply([changed(8, amended)], db);
    await projector.apply([changed(8, amended)], db);
    await projector.apply([changed(3, arizona)], db);
    expect(await readRecordedRules(db, 0)).toEqual([{ rule: amended, position: 8 }]);
  });
});
