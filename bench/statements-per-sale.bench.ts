/**
 * Statements the service sends to PostgreSQL per POST /transaction: a count, not a timing, so it
 * can be compared on a machine too busy for req/s figures. The app runs in this process (the
 * test harness's startTestApp, PostgreSQL when DATABASE_URL is set, else its own embedded server)
 * and every statement its `pg` clients send is tallied while sales go in one at a time, each
 * with its own Idempotency-Key as a POS sends them (BENCH_IN_FLIGHT=<n>: n at a time, as n tills would). The async projectors' catch-up is counted
 * apart: how many sales it takes at once depends on timing, so its share per sale varies from run to run.
 *
 *   node -r ts-node/register/transpile-only bench/statements-per-sale.bench.ts
 */
import { Client } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, TEST_ADMIN_KEY } from '../test/support/test-app';
import { onboardMerchants } from './support/service-load';
import { benchSales } from './support/sales';

const SALES = 200;
/** Sales sent at once (BENCH_IN_FLIGHT, default 1): with more, the coalesced statements serve several sales each. */
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 1);
const WARM_UP = 20;

type Kind =
  | 'reads outside a transaction'
  | 'append transactions (chain-head lock)'
  | 'async projector catch-up'
  | 'other transactions';

async function main(): Promise<void> {
  const counts = new Map<Kind, Map<string, number>>();
  const open = new WeakMap<Client, string[]>();
  let counting = false;
  const tally = (kind: Kind, label: string) => {
    const labels = counts.get(kind) ?? new Map<string, number>();
    counts.set(kind, labels.set(label, (labels.get(label) ?? 0) + 1));
  };
  const kindOf = (statements: string[]): Kind =>
    statements.some(
      (text) =>
        text.includes('update event_store_head') ||
        (text.includes('from event_store_head') && text.includes('for update')),
    )
      ? 'append transactions (chain-head lock)'
      : statements.some((text) => text.includes('projection_checkpoints'))
        ? 'async projector catch-up'
        : 'other transactions';
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text);
    const statement = text.replace(/\s+/g, ' ').trim();
    const statements = open.get(this);
    if (statement === 'begin') open.set(this, [statement]);
    else if (statements && (statement === 'commit' || statement === 'rollback')) {
      open.delete(this);
      if (counting) for (const each of [...statements, statement]) tally(kindOf(statements), each.slice(0, 70));
    } else if (statements) statements.push(statement);
    else if (counting) tally('reads outside a transaction', statement.slice(0, 70));
    return original.apply(this, args);
  } as typeof Client.prototype.query;

  const app = await startTestApp({ env: { LOG_LEVEL: 'silent' } });
  try {
    const [merchantId] = ['bench-merchant-0'];
    const [key] = await onboardMerchants(app.baseUrl, TEST_ADMIN_KEY, [merchantId]);
    const sales = benchSales(SALES + WARM_UP, [merchantId]);
    const send = async (body: string, n: number) => {
      const response = await fetch(`${app.baseUrl}/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': `stmt-${n}` },
        body,
      });
      if (response.status !== 201) throw new Error(`sale ${n}: ${response.status} ${await response.text()}`);
    };
    for (let i = 0; i < WARM_UP; i++) await send(sales[i].body, i);
    await sleep(1500);
    counting = true;
    let next = WARM_UP;
    const lane = async () => {
      for (let i = next++; i < WARM_UP + SALES; i = next++) await send(sales[i].body, i);
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    // The async projectors' catch-up for the last sales.
    await sleep(1500);
    counting = false;
  } finally {
    await app.close();
  }
  console.log(
    `driver ${process.env.DATABASE_URL ? 'postgres' : 'embedded'}: ${SALES} sales, ${IN_FLIGHT} at a time, statements per sale`,
  );
  for (const [kind, labels] of counts) {
    const total = [...labels.values()].reduce((sum, n) => sum + n, 0);
    console.log(`${(total / SALES).toFixed(2).padStart(6)}  ${kind}`);
    for (const [label, n] of [...labels].sort((x, y) => y[1] - x[1]))
      console.log(`${(n / SALES).toFixed(2).padStart(12)}  ${label}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
