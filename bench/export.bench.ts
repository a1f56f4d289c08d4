/**
 * POST /export of 1,000,000 transactions from the built service on PostgreSQL, in each mode: rows
 * per second and the service's peak memory; and in the same run the baseline, the same keyset
 * select of the same rows through the same driver (JSON parsed) with no CSV and no HTTP.
 * Writes the table into docs/benchmarks.md between the bench:export markers.
 *
 * The rows are not made through POST /transaction, which would take hours at the rates in
 * docs/benchmarks.md: six real records (a sale; one overridden, one voided with its VOID record,
 * one refunded with its REFUND record) are made through the API, then copied in bulk into
 * rm_transactions with generate_series, each copy with its own id, merchant (20), time (2 s apart)
 * and position, the last a day before the run (the export leaves out what is newer than the request).
 * Their events are not in the log: the export reads the read model only.
 *
 * Run: npm run build && node -r ts-node/register/transpile-only bench/export.bench.ts
 * BENCH_EXPORT_ROWS (default 1000000) sets the number of rows; BENCH_EXPORT_MODES (comma-separated,
 * default all) the modes exported. BENCH_CPU_PROF=<dir> runs the service with --cpu-prof into
 * that folder, to see where its time goes (bench/support/profile-summary.ts reads it). The table
 * goes into docs/benchmarks.md only from a run of every mode without the profiler, which slows the
 * service; the others print it.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';
import type { Database } from '../src/platform/event-store/sql';
import { exportRows } from '../src/transactions/read-model/transaction-batches';
import { EXPORT_MODES, type ExportMode } from '../src/export/export-transactions/export-columns';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { replaceSection } from './support/report';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const MODES = (process.env.BENCH_EXPORT_MODES?.split(',') ?? EXPORT_MODES) as ExportMode[];
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const INSERT_BATCH = 100_000;
const MERCHANTS = 20;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
const TEMPLATE_MERCHANT = 'bench-templates';
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

interface Result {
  target: string;
  rows: number;
  seconds: number;
  megabytes: number | null;
  /** The service's peak RSS once half the rows had arrived, and at the end: equal when memory does not grow with the rows. */
  halfwayRssMb: number | null;
  peakRssMb: number | null;
}

const MB = 2 ** 20;
/** The 1-minute load average as the run starts: the machine is shared, and the figures move with it. */
const LOAD_AT_START = loadavg()[0];

async function api(service: ServiceProcess, path: string, body: unknown, key = ADMIN_KEY): Promise<any> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The six template records, made through the API as a point of sale would. */
async function makeTemplates(service: ServiceProcess): Promise<void> {
  await api(service, '/admin/merchants', { merchant_id: TEMPLATE_MERCHANT, name: 'Bench templates', environment: 'sandbox' });
  const { key } = await api(service, '/admin/api-keys', { role: 'merchant', merchant_id: TEMPLATE_MERCHANT });
  const sale = async (cashier: string) =>
    (
      await api(
        service,
        '/transaction',
        { merchant_id: TEMPLATE_MERCHANT, subtotal_cents: 1000, tax_total_cents: 3, payment_method: 'cash', zip_code: '85004', store_id: 's-1', terminal_id: 't-1', cashier_id: cashier },
        key,
      )
    ).transaction.id;
  await sale('c-1');
  const overridden = await sale('c-2');
  await api(service, '/transaction/override', { transaction_id: overridden, employee_id: 'e-9', employee_name: 'Ann Lee', reason: 'pricing-error', new_cash_total_cents: 1000 }, key);
  const voided = await sale('c-3');
  await api(service, '/transaction/void', { original_transaction_id: voided, void_reason: 'pricing_error', voided_by: 'm-1' }, key);
  const refunded = await sale('c-4');
  await api(service, '/transaction/refund', { original_transaction_id: refunded, refund_amount: 503, void_reason: 'wrong_item', voided_by: 'e-3' }, key);
}

/** Copies the templates round-robin into `ROWS` rows, a batch per statement. */
async function copyTemplates(db: Database): Promise<void> {
  const [{ templates, top }] = await db.query<{ templates: number; top: string }>(
    `select count(*)::int as templates, (select max(position) from rm_transactions) as top from rm_transactions where merchant_id = $1`,
    [TEMPLATE_MERCHANT],
  );
  const firstAt = new Date(Date.now() - ROWS * 2000 - 86_400_000);
  for (let from = 1; from <= ROWS; from += INSERT_BATCH) {
    await db.query(
      `with t as (select row_number() over (order by position)::int - 1 as k, r.* from rm_transactions r where merchant_id = $1),
            g as (select n, $6::timestamptz + n * interval '2 seconds' as at, $2::bigint + n as position,
                         'bench-merchant-' || (n % ${MERCHANTS}) as merchant_id from generate_series($3::int, $4::int) n)
       insert into rm_transactions (id, merchant_id, type, state, jurisdiction_id, payment_method, cashier_id, created_at,
         subtotal_cents, tax_total_cents, ledger_total_cents, cash_total_cents, rounding_delta_cents, cash_rounding_mode,
         compliance_status, fraud_score, risk_level, audit_hash, position, detail, history)
       select 'TXN-' || to_char(g.at at time zone 'UTC', 'YYYY-MM-DD') || '-' || lpad(upper(to_hex(g.n)), 8, '0'), g.merchant_id,
         t.type, t.state, t.jurisdiction_id, t.payment_method, t.cashier_id, g.at,
         t.subtotal_cents, t.tax_total_cents, t.ledger_total_cents, t.cash_total_cents, t.rounding_delta_cents, t.cash_rounding_mode,
         t.compliance_status, t.fraud_score, t.risk_level, t.audit_hash, g.position,
         t.detail || jsonb_build_object('id', 'TXN-' || to_char(g.at at time zone 'UTC', 'YYYY-MM-DD') || '-' || lpad(upper(to_hex(g.n)), 8, '0'),
           'merchant_id', g.merchant_id, 'created_at', to_char(g.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'chain_position', g.position),
         t.history
       from g join t on t.k = g.n % $5`,
      [TEMPLATE_MERCHANT, top, from, Math.min(from + INSERT_BATCH - 1, ROWS), templates, firstAt.toISOString()],
    );
    process.stdout.write(`\rinserted ${Math.min(from + INSERT_BATCH - 1, ROWS).toLocaleString('en-US')} rows`);
  }
  process.stdout.write('\n');
  await db.query('analyze rm_transactions');
}

/** The floor: the export's own keyset reader over the same rows, with nothing done to them. */
async function baseline(db: Database): Promise<Result> {
  const started = process.hrtime.bigint();
  let rows = 0;
  for await (const batch of exportRows(db, {})) rows += batch.length;
  return {
    target: 'baseline: keyset select of the same rows (pg, JSON parsed), no CSV, no HTTP',
    rows,
    seconds: elapsed(started),
    megabytes: null,
    halfwayRssMb: null,
    peakRssMb: null,
  };
}

/** One export of every merchant, read as fast as the client can; the lines are counted, not kept. */
async function exportOnce(service: ServiceProcess, mode: ExportMode): Promise<Result> {
  const started = process.hrtime.bigint();
  const response = await fetch(`${service.baseUrl}/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
    body: JSON.stringify({ export_mode: mode }),
  });
  if (response.status !== 200 || !response.body) throw new Error(`export ${mode}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  let halfwayRssMb = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    bytes += buffer.length;
    for (let at = buffer.indexOf(10); at >= 0; at = buffer.indexOf(10, at + 1)) lines++;
    if (halfwayRssMb === 0 && lines > ROWS / 2) halfwayRssMb = service.peakRssBytes() / MB;
  }
  return {
    target: `POST /export, ${mode}`,
    // No cell holds a line break in these rows: every LF ends a line, the first the header's.
    rows: lines - 1,
    seconds: elapsed(started),
    megabytes: bytes / MB,
    halfwayRssMb,
    peakRssMb: service.peakRssBytes() / MB,
  };
}

const elapsed = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

function table(results: Result[], rssBeforeMb: number): string {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const floor = results[0].rows / results[0].seconds;
  return [
    `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
      `PostgreSQL and the client on the same machine, load average ${fmt(LOAD_AT_START, 1)} at the start. ${fmt(ROWS)} rows (plus the 6 templates); ` +
      `service peak RSS before the first export ${fmt(rssBeforeMb)} MB (start, seeds, the API calls that made the templates).`,
    '',
    '| target | rows | s | rows/s | vs baseline | MB sent | service peak RSS MB, half the rows sent | at the end |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => {
      const rate = r.rows / r.seconds;
      const optional = (n: number | null) => (n === null ? '–' : fmt(n));
      return `| ${r.target} | ${fmt(r.rows)} | ${fmt(r.seconds, 1)} | ${fmt(rate)} | ${fmt((100 * rate) / floor)}% | ${optional(r.megabytes)} | ${optional(r.halfwayRssMb)} | ${optional(r.peakRssMb)} |`;
    }),
  ].join('\n');
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres');
  const service = await ServiceProcess.start({
    entry: 'built',
    nodeArgs: CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [],
    env: {
      DATABASE_URL: database.url,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'info',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
    },
  });
  const db = await database.open();
  try {
    await makeTemplates(service);
    await copyTemplates(db);
    const rssBeforeMb = service.peakRssBytes() / MB;
    const results = [await baseline(db)];
    console.log(JSON.stringify(results.at(-1)));
    for (const mode of MODES) {
      results.push(await exportOnce(service, mode));
      console.log(JSON.stringify(results.at(-1)));
    }
    for (const r of results) if (r.rows !== results[0].rows) throw new Error(`${r.target}: ${r.rows} rows, the baseline read ${results[0].rows}`);
    const text = table(results, rssBeforeMb);
    console.log(text);
    if (!CPU_PROF_DIR && MODES.length === EXPORT_MODES.length) await replaceSection('export', text);
  } finally {
    await service.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
