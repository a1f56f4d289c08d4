/**
 * Signed webhooks, with the built service on PostgreSQL and a receiver on this machine:
 * - POST /transaction's throughput with 5 admin endpoints subscribed to every event type, against
 *   the same load on a service with none (the baseline, in the same run): the fan-out projector
 *   reads every sale, and the risk-level events it finds are delivered during the load;
 * - the deliverer's rate: 5 endpoints, voids delivered once, then all replayed, timed from the
 *   replay until the receiver holds every delivery again (signing, the HTTP post, the row's update).
 * Writes the table into docs/benchmarks.md between the bench:webhooks markers.
 *
 * Run: npm run bench:webhooks (builds first). BENCH_SECONDS (default 15) sets the load's length.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { WEBHOOK_EVENT_TYPES } from '../src/webhooks/webhook-events';
import { replaceSection } from './support/report';
import { benchSales, type BenchSale } from './support/sales';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARM_UP_SECONDS = 3;
const CONNECTIONS = 8;
const MERCHANTS = 20;
const ENDPOINTS = 5;
const VOIDS = 300;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';


async function post(service: ServiceProcess, key: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${service.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function withService<T>(run: (service: ServiceProcess, keys: string[]) => Promise<T>): Promise<T> {
  const db = await createTestDatabase('postgres');
  const service = await ServiceProcess.start({
    entry: 'built',
    env: { DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', RATE_LIMIT_SANDBOX: '1000000000', WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  try {
    return await run(service, await onboardMerchants(service.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS)));
  } finally {
    await service.stop();
    await db.drop();
  }
}

const subscribe = (service: ServiceProcess, receiver: WebhookReceiver, event_types: string[]) =>
  Promise.all(Array.from({ length: ENDPOINTS }, () => post(service, ADMIN_KEY, '/webhooks/endpoints', { url: receiver.url, event_types })));

async function salesPerSecond(service: ServiceProcess, keys: string[], sales: BenchSale[]): Promise<number> {
  await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, WARM_UP_SECONDS);
  const result = await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, SECONDS);
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${result.non2xx + result.errors + result.timeouts} sales failed`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
  const receiver = await WebhookReceiver.start();
  try {
    const without = await withService((service, keys) => salesPerSecond(service, keys, sales));
    const withEndpoints = await withService(async (service, keys) => {
      await subscribe(service, receiver, [...WEBHOOK_EVENT_TYPES]);
      const rate = await salesPerSecond(service, keys, sales);
      return { rate, delivered: receiver.received.length };
    });
    receiver.received.length = 0;
    const delivery = await withService(async (service, keys) => {
      const endpoints = await subscribe(service, receiver, ['transaction.voided']);
      const merchant = benchMerchantIds(MERCHANTS)[0];
      for (let i = 0; i < VOIDS; i += 10) {
        await Promise.all(Array.from({ length: 10 }, async () => {
          const { transaction } = await post(service, keys[0], '/transaction', { merchant_id: merchant, subtotal_cents: 1000, tax_total_cents: 3, payment_method: 'cash', zip_code: '85004' });
          await post(service, keys[0], '/transaction/void', { original_transaction_id: transaction.id, void_reason: 'pricing_error', voided_by: 'bench' });
        }));
      }
      await receiver.waitFor('the first deliveries', (got) => got.length >= VOIDS * ENDPOINTS, 300_000);
      receiver.received.length = 0;
      const started = performance.now();
      for (const endpoint of endpoints) await post(service, ADMIN_KEY, `/webhooks/endpoints/${endpoint.id}/replay`, { from_position: 1 });
      await receiver.waitFor('the replayed deliveries', (got) => got.length >= VOIDS * ENDPOINTS, 300_000);
      return { deliveries: VOIDS * ENDPOINTS, seconds: (performance.now() - started) / 1000 };
    });
    const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
    const text = [
      `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), PostgreSQL, ` +
        `${SECONDS} s of sales at ${CONNECTIONS} connections after a ${WARM_UP_SECONDS} s warm-up, receiver and load generator on the same machine.`,
      '',
      '| measurement | result | vs baseline |',
      '|---|---:|---:|',
      `| POST /transaction, no endpoint (baseline) | ${fmt(without)} sales/s | 100% |`,
      `| POST /transaction, ${ENDPOINTS} endpoints subscribed to every event | ${fmt(withEndpoints.rate)} sales/s (${fmt(withEndpoints.delivered)} deliveries received meanwhile) | ${fmt((100 * withEndpoints.rate) / without)}% |`,
      `| deliverer: ${fmt(delivery.deliveries)} replayed deliveries to ${ENDPOINTS} endpoints (WEBHOOK_CONCURRENCY 2) | ${fmt(delivery.deliveries / delivery.seconds)} deliveries/s (${fmt(delivery.seconds, 1)} s) | |`,
    ].join('\n');
    console.log(text);
    await replaceSection('webhooks', text);
  } finally {
    await receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
