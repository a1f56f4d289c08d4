import { PROJECTORS } from '../../src/projectors';
import { loadConfig } from '../../src/platform/config/config';
import type { Principal } from '../../src/platform/identity/principal';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import { AsyncProjectionRunner, prepareProjections, rebuildProjections } from '../../src/platform/projections/runner';
import { WebhookEndpoints } from '../../src/webhooks/webhook-endpoints';
import { FixedClock } from '../support/fixed-clock';
import { overrideCommand, refundCommand, saleStream, voidCommand } from '../support/sale-commands';
import { DRIVERS, createTestDatabase } from '../support/test-database';

const principal = (role: Principal['role'], fields: Partial<Principal> = {}): Principal => ({
  keyId: `key-${role}`,
  role,
  environment: 'sandbox',
  ...fields,
});

/** The fan-out as a projector: a row per endpoint and event of its owner's, and a rebuild adds none. */
describe.each(DRIVERS)('the webhook fan-out on %s', (driver) => {
  it('sends each endpoint its owner’s events only, once, and a rebuild from the log adds no row', async () => {
    const testDb = await createTestDatabase(driver);
    const db = await testDb.open();
    try {
      await migrate(db);
      await prepareProjections(db, PROJECTORS);
      const clock = new FixedClock();
      const store = new SqlEventStore(db, clock);
      const runner = new AsyncProjectionRunner(db, PROJECTORS, (name, error) => {
        throw new Error(`${name}: ${String(error)}`);
      });
      const onboarded = (merchantId: string, partnerId: string | null) =>
        store.append(
          `merchant-${merchantId}`,
          [
            {
              type: 'MerchantOnboarded',
              data: {
                merchantId,
                name: merchantId,
                environment: 'sandbox',
                partnerId,
                onboardedAt: clock.now().toISOString(),
              },
              metadata: { schemaVersion: 1 },
            },
          ],
          { expectedRevision: 0 },
        );
      await onboarded('m-own', null);
      await onboarded('m-partnered', 'partner-1');
      const endpoints = new WebhookEndpoints(db, clock, loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }));
      const subscribe = async (who: Principal) =>
        (
          await endpoints.create(who, {
            url: 'http://127.0.0.1:9/hooks',
            event_types: ['transaction.voided', 'transaction.refunded', 'transaction.overridden'],
          })
        ).endpoint.id;
      const admin = await subscribe(principal('admin'));
      const own = await subscribe(principal('merchant', { merchantId: 'm-own' }));
      const partner = await subscribe(principal('partner', { partnerId: 'partner-1' }));
      const otherPartner = await subscribe(principal('partner', { partnerId: 'partner-2' }));
      // Per merchant: a sale overridden, one voided, one refunded in two parts (ids of its own: `tag`).
      for (const [merchantId, tag] of [
        ['m-own', 'OWN'],
        ['m-partnered', 'PRT'],
      ]) {
        for (const { streamId, events } of [
          saleStream(merchantId, `TXN-2026-11-21-${tag}00001`, {}, (id) => [
            overrideCommand(id, `OVR-2026-11-21-${tag}00001`, 1000),
          ]),
          saleStream(merchantId, `TXN-2026-11-21-${tag}00002`, {}, (id) => [
            voidCommand(id, `TXN-2026-11-21-${tag}VOID1`),
          ]),
          saleStream(merchantId, `TXN-2026-11-21-${tag}00003`, {}, (id) => [
            refundCommand(id, `TXN-2026-11-21-${tag}REF01`, 503),
            refundCommand(id, `TXN-2026-11-21-${tag}REF02`, 500),
          ]),
        ])
          await store.append(streamId, events, { expectedRevision: 0 });
      }
      await runner.drain();
      const rows = async () =>
        db.query<{ endpoint_id: string; event_type: string; merchant_id: string }>(
          "select endpoint_id, event_type, payload::json->'data'->>'merchant_id' as merchant_id from webhook_deliveries order by endpoint_id, position, webhook_id",
        );
      const live = await rows();
      const of = (endpoint: string) =>
        live.filter((row) => row.endpoint_id === endpoint).map((row) => `${row.merchant_id} ${row.event_type}`);
      const history = (merchantId: string) =>
        ['transaction.overridden', 'transaction.voided', 'transaction.refunded', 'transaction.refunded'].map(
          (type) => `${merchantId} ${type}`,
        );
      expect(of(admin).sort()).toEqual([...history('m-own'), ...history('m-partnered')].sort());
      expect(of(own).sort()).toEqual(history('m-own').sort());
      expect(of(partner).sort()).toEqual(history('m-partnered').sort());
      expect(of(otherPartner)).toEqual([]);

      await rebuildProjections(db, PROJECTORS);
      expect(await rows()).toEqual(live);
    } finally {
      await testDb.drop();
    }
  });
});
