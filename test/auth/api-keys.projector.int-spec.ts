import type { ApiKeyEvent } from '../../src/auth/api-key.events';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import { FixedClock } from '../support/fixed-clock';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import { applyBatch, catchUp, prepareProjections, rebuildProjections } from '../../src/platform/projections/runner';
import { apiKeysProjector } from '../../src/auth/read-model/api-keys.projector';

const meta = { schemaVersion: 1 };
const issued = (
  keyId: string,
  data: Partial<Extract<ApiKeyEvent, { type: 'ApiKeyIssued' }>['data']> = {},
): ApiKeyEvent => ({
  type: 'ApiKeyIssued',
  data: {
    keyId,
    keyHash: keyId.padEnd(64, '0'),
    role: 'merchant',
    environment: 'sandbox',
    merchantId: 'm-1',
    partnerId: null,
    name: null,
    issuedAt: '2026-11-21T12:00:00.000Z',
    ...data,
  },
});
const revoked = (keyId: string, revokedAt: string): ApiKeyEvent => ({
  type: 'ApiKeyRevoked',
  data: { keyId, revokedAt },
});

describe.each(DRIVERS)('api-keys projector on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;
  let store: SqlEventStore;
  const rows = () => db.query('select * from rm_api_keys order by id');

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
    await prepareProjections(db, [apiKeysProjector]);
    store = new SqlEventStore(db, new FixedClock());
    const append = (event: ApiKeyEvent, revision: number) =>
      store.append(`apiKey-${event.data.keyId}`, [{ ...event, metadata: meta }], { expectedRevision: revision });
    await append(issued('key_a', { name: 'Till 1' }), 0);
    await append(
      issued('key_b', { role: 'partner', merchantId: null, partnerId: 'key_b', environment: 'production' }),
      0,
    );
    await append(revoked('key_a', '2026-11-21T13:00:00.000Z'), 1);
    // Built after the append: brought up to the log as the async runner would.
    await catchUp(db, [apiKeysProjector]);
  });

  afterEach(() => testDb.drop());

  it('holds each key by its hash, with its revocation', async () => {
    expect(await rows()).toEqual([
      {
        id: 'key_a',
        key_hash: 'key_a'.padEnd(64, '0'),
        role: 'merchant',
        environment: 'sandbox',
        merchant_id: 'm-1',
        partner_id: null,
        name: 'Till 1',
        created_at: new Date('2026-11-21T12:00:00.000Z'),
        revoked_at: new Date('2026-11-21T13:00:00.000Z'),
      },
      {
        id: 'key_b',
        key_hash: 'key_b'.padEnd(64, '0'),
        role: 'partner',
        environment: 'production',
        merchant_id: null,
        partner_id: 'key_b',
        name: null,
        created_at: new Date('2026-11-21T12:00:00.000Z'),
        revoked_at: null,
      },
    ]);
  });

  it('changes nothing when the events are applied again', async () => {
    const before = await rows();
    const events = await store.readAll(1, 100);
    await db.transaction((tx) => applyBatch(tx, [apiKeysProjector], events));
    expect(await rows()).toEqual(before);
  });

  it('rebuilds from the log to the same rows', async () => {
    const live = await rows();
    await rebuildProjections(db, [apiKeysProjector]);
    expect(await rows()).toEqual(live);
  });
});
