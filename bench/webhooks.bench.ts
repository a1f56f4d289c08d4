/**
 * Signed webhooks, with the built service on PostgreSQL and a receiver on this machine:
 * - POST /transaction's throughput with 5 admin endpoints subscribed to every event type, against
 *   the same load on a service with none (the baseline, in the same run): the fan-out projector
 *   reads every sale, and the risk-level events it finds are delivered during the load;
 * - the deliverer's rate: 5 endpoints, voids delivered once, then all replayed, timed from the
 *   replay until the receiver holds every delivery again (signing, the HTTP post, the row's update).
 * Writes the table into docs/benchmarks.md between the bench:webhooks markers.
 *
 * Run: npm run bench:webhooks (builds first). BENCH_SECONDS (default 10) sets the length of each round of sales.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { WEBHOOK_EVENT_TYPES } from '../src/webhooks/webhook-events';
import { replaceSection } from './support/report';
import { benchSales, type BenchSale } from './support/sales';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 3;
const CONNECTIONS = 8;
const MERCHANTS = 20;
const ENDPOINTS = 5;
const VOIDS = 300;
const ROUNDS = 3;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

async function post(service: ServiceProcess, key: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

interface Running {
  service: ServiceProcess;
  keys: string[];
  stop(): Promise<void>;
}

async function startService(): Promise<Running> {
  const db = await createTestDatabase('postgres');
  const service = await ServiceProcess.start({
    entry: 'built',
    env: {
      DATABASE_URL: db.url,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SANDBOX: '1000000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
  });
  const stop = async () => {
    await service.stop();
    await db.drop();
  };
  try {
    return { service, keys: await onboardMerchants(service.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS)), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const subscribe = (service: ServiceProcess, receiver: WebhookReceiver, eventTypes: string[]) =>
  Promise.all(
    Array.from({ length: ENDPOINTS }, () =>
      post(service, ADMIN_KEY, '/webhooks/endpoints', { url: receiver.url, event_types: eventTypes }),
    ),
  );

async function salesPerSecond({ service, keys }: Running, sales: BenchSale[], seconds: number): Promise<number> {
  const result = await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, seconds);
  if (result.non2xx + result.errors + result.timeouts > 0)
    throw new Error(`${result.non2xx + result.errors + result.timeouts} sales failed`);
  return result.requests.average;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Both services run side by side and are loaded in turn, ROUNDS times: on a machine whose other load
 * comes and goes, each round's pair meets about the same conditions, and the median of the rounds'
 * ratios is reported beside each round's.
 */
async function salesRounds(
  receiver: WebhookReceiver,
  sales: BenchSale[],
): Promise<{ without: number; with: number }[]> {
  const [plain, subscribed] = await Promise.all([startService(), startService()]);
  try {
    await subscribe(subscribed.service, receiver, [...WEBHOOK_EVENT_TYPES]);
    for (const running of [plain, subscribed]) await salesPerSecond(running, sales, WARM_UP_SECONDS);
    const rounds: { without: number; with: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({
        without: await salesPerSecond(plain, sales, SECONDS),
        with: await salesPerSecond(subscribed, sales, SECONDS),
      });
      console.log(JSON.stringify(rounds.at(-1)));
    }
    return rounds;
  } finally {
    await Promise.all([plain.stop(), subscribed.stop()]);
  }
}

async function deliveryRate(receiver: WebhookReceiver): Promise<{ deliveries: number; seconds: number }> {
  const running = await startService();
  try {
    const { service, keys } = running;
    const endpoints = await subscribe(service, receiver, ['transaction.voided']);
    const merchant = benchMerchantIds(MERCHANTS)[0];
    for (let i = 0; i < VOIDS; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const { transaction } = await post(service, keys[0], '/transaction', {
            merchant_id: merchant,
            subtotal_cents: 1000,
            tax_total_cents: 3,
            payment_method: 'cash',
            zip_code: '85004',
          });
          await post(service, keys[0], '/transaction/void', {
            original_transaction_id: transaction.id,
            void_reason: 'pricing_error',
            voided_by: 'bench',
          });
        }),
      );
    }
    await receiver.waitFor('the first deliveries', (got) => got.length >= VOIDS * ENDPOINTS, 300_000);
    receiver.received.length = 0;
    const started = performance.now();
    for (const endpoint of endpoints)
      await post(service, ADMIN_KEY, `/webhooks/endpoints/${endpoint.id}/replay`, { from_position: 1 });
    await receiver.waitFor('the replayed deliveries', (got) => got.length >= VOIDS * ENDPOINTS, 300_000);
    return { deliveries: VOIDS * ENDPOINTS, seconds: (performance.now() - started) / 1000 };
  } finally {
    await running.stop();
  }
}

async function main(): Promise<void> {
  const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
  const receiver = await WebhookReceiver.start();
  try {
    const rounds = await salesRounds(receiver, sales);
    const deliveredDuringSales = receiver.received.length;
    receiver.received.length = 0;
    const delivery = await deliveryRate(receiver);
    const fmt = (n: number, digits = 0) =>
      n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
    const ratios = rounds.map((round) => round.with / round.without);
    const text = [
      `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), PostgreSQL, ` +
        `${ROUNDS} rounds of ${SECONDS} s of sales per service at ${CONNECTIONS} connections after a ${WARM_UP_SECONDS} s warm-up, receiver and load generator on the same machine, ` +
        `load average ${loadavg()[0].toFixed(1)} at the end.`,
      '',
      '| round | no endpoint (baseline), sales/s | 5 endpoints on every event, sales/s | ratio |',
      '|---|---:|---:|---:|',
      ...rounds.map(
        (round, i) => `| ${i + 1} | ${fmt(round.without, 1)} | ${fmt(round.with, 1)} | ${fmt(100 * ratios[i])}% |`,
      ),
      `| median | | | ${fmt(100 * median(ratios))}% |`,
      '',
      `Deliveries received during the sales: ${fmt(deliveredDuringSales)}. Deliverer: ${fmt(delivery.deliveries)} replayed deliveries to ${ENDPOINTS} endpoints ` +
        `(WEBHOOK_CONCURRENCY 2) in ${fmt(delivery.seconds, 1)} s: ${fmt(delivery.deliveries / delivery.seconds)} deliveries/s.`,
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
