import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { freePort, ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { verified, WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from '../support/wait';
import { ADMIN_KEY, onboard, post, recordSale, serviceEnv } from '../reliability/support';

const LOAD_MS = 2500;

/**
 * Two service processes on one PostgreSQL deliver to a receiver that is down while sales are voided
 * on both; both are killed with kill -9 under that stream, the receiver comes up, they restart:
 * every void in the log arrives, signed, and no webhook-id arrives twice (the receiver answered
 * nothing before, so a second arrival could only be a double send).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('webhook delivery across kill -9', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver | undefined;
  let services: ServiceProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });

  afterAll(async () => {
    for (const service of services) await service.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('delivers every event once per endpoint, none lost, after both processes were killed', async () => {
    const env = serviceEnv({ DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50' });
    services = await Promise.all([ServiceProcess.start({ env }), ServiceProcess.start({ env })]);
    const receiverPort = await freePort();
    const endpoint = await post(services[0].baseUrl, ADMIN_KEY, '/webhooks/endpoints', {
      url: `http://127.0.0.1:${receiverPort}/hooks`,
      event_types: ['transaction.voided'],
    });
    expect(endpoint.status).toBe(201);
    const merchant = await onboard(services[0]);

    // A stream of sales voided on both processes, the receiver down; both killed under it.
    let stopped = false;
    const killed = sleep(LOAD_MS).then(async () => {
      await services[0].kill();
      await sleep(200);
      await services[1].kill();
      stopped = true;
    });
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = 0; !stopped; i++) {
          const service = services[(worker + i) % 2];
          try {
            const saleId = await recordSale(service, merchant);
            const voided = await post(service.baseUrl, merchant.key, '/transaction/void', {
              original_transaction_id: saleId,
              void_reason: 'pricing_error',
              voided_by: 'm-1',
            });
            if (voided.status === 201) acknowledged.push(saleId);
          } catch {
            await sleep(50);
          }
        }
      }),
    );
    await killed;
    expect(acknowledged.length).toBeGreaterThan(0);

    receiver = await WebhookReceiver.start(() => new Date(), receiverPort);
    services = await Promise.all(services.map((service) => ServiceProcess.start({ env, port: service.port })));

    const pool = new Pool({ connectionString: database.url });
    try {
      const voids = await pool.query<{ position: string; original: string }>(
        `select position, data->>'original_transaction_id' as original from events e
         where event_type = 'TransactionVoided' and position > (select after_position from webhook_endpoints where id = $1) order by position`,
        [endpoint.body.id],
      );
      expect(voids.rows.map((row) => row.original)).toEqual(expect.arrayContaining(acknowledged));
      await receiver.waitFor(
        `${voids.rows.length} voids`,
        (got) => new Set(got.map((r) => r.webhookId)).size >= voids.rows.length,
        60_000,
      );
      // Once no row is pending, nothing can be sent again: a second arrival would be in already.
      await waitFor(
        'every delivery row marked delivered',
        async () =>
          (
            await pool.query("select 1 from webhook_deliveries where endpoint_id = $1 and status <> 'delivered'", [
              endpoint.body.id,
            ])
          ).rowCount === 0,
      );
      const received = receiver.received;
      for (const delivery of received) verified(delivery, endpoint.body.secret);
      const positions = received
        .map((delivery) => JSON.parse(delivery.body).data.position as number)
        .sort((a, b) => a - b);
      const ids = received.map((delivery) => delivery.webhookId);
      const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
      const rows = await pool.query<{ status: string; attempts: number }>(
        'select status, attempts from webhook_deliveries where endpoint_id = $1',
        [endpoint.body.id],
      );
      const retried = rows.rows.filter((row) => row.attempts > 1).length;
      console.log(
        `webhook crash: ${acknowledged.length} voids acknowledged, ${voids.rows.length} in the log, ${received.length} deliveries received, ` +
          `${new Set(ids).size} distinct webhook-ids, ${twice.length} twice, ${retried} rows tried more than once`,
      );
      expect(positions).toEqual(voids.rows.map((row) => Number(row.position)));
      expect(twice).toEqual([]);
      expect(rows.rows.every((row) => row.status === 'delivered')).toBe(true);
    } finally {
      await pool.end();
    }
  }, 180_000);
});
