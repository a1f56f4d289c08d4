import type { Database } from '../../src/platform/event-store/sql';

const INSERT_BATCH = 100_000;
const TEMPLATE_MERCHANT = 'bench-templates';

async function post(baseUrl: string, path: string, body: unknown, key: string): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * `rows` exportable transactions over `merchants` merchants (`bench-merchant-<n>`, as
 * bench/support/service-load.ts names them), made fast: six real records (a sale; one overridden,
 * one voided with its VOID record, one refunded with its REFUND record) through the API as a point
 * of sale would, then copied round-robin into rm_transactions with generate_series, a batch per
 * statement, each copy with its own id, merchant, time (2 s apart) and position, the last a day
 * before now (an export leaves out what is newer than its request). Their events are not in the
 * log: the export reads the read model only.
 */
export async function makeExportRows(
  baseUrl: string,
  adminKey: string,
  db: Database,
  rows: number,
  merchants: number,
): Promise<void> {
  await post(
    baseUrl,
    '/admin/merchants',
    { merchant_id: TEMPLATE_MERCHANT, name: 'Bench templates', environment: 'sandbox' },
    adminKey,
  );
  const { key } = await post(
    baseUrl,
    '/admin/api-keys',
    { role: 'merchant', merchant_id: TEMPLATE_MERCHANT },
    adminKey,
  );
  const sale = async (cashier: string) =>
    (
      await post(
        baseUrl,
        '/transaction',
        {
          merchant_id: TEMPLATE_MERCHANT,
          subtotal_cents: 1000,
          tax_total_cents: 3,
          payment_method: 'cash',
          zip_code: '85004',
          store_id: 's-1',
          terminal_id: 't-1',
          cashier_id: cashier,
        },
        key,
      )
    ).transaction.id;
  await sale('c-1');
  const overridden = await sale('c-2');
  await post(
    baseUrl,
    '/transaction/override',
    {
      transaction_id: overridden,
      employee_id: 'e-9',
      employee_name: 'Ann Lee',
      reason: 'pricing-error',
      new_cash_total_cents: 1000,
    },
    key,
  );
  const voided = await sale('c-3');
  await post(
    baseUrl,
    '/transaction/void',
    { original_transaction_id: voided, void_reason: 'pricing_error', voided_by: 'm-1' },
    key,
  );
  const refunded = await sale('c-4');
  await post(
    baseUrl,
    '/transaction/refund',
    { original_transaction_id: refunded, refund_amount: 503, void_reason: 'wrong_item', voided_by: 'e-3' },
    key,
  );

  const [{ templates, top }] = await db.query<{ templates: number; top: string }>(
    `select count(*)::int as templates, (select max(position) from rm_transactions) as top from rm_transactions where merchant_id = $1`,
    [TEMPLATE_MERCHANT],
  );
  const firstAt = new Date(Date.now() - rows * 2000 - 86_400_000);
  for (let from = 1; from <= rows; from += INSERT_BATCH) {
    await db.query(
      `with t as (select row_number() over (order by position)::int - 1 as k, r.* from rm_transactions r where merchant_id = $1),
            g as (select n, $6::timestamptz + n * interval '2 seconds' as at, $2::bigint + n as position,
                         'bench-merchant-' || (n % ${merchants}) as merchant_id from generate_series($3::int, $4::int) n)
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
      [TEMPLATE_MERCHANT, top, from, Math.min(from + INSERT_BATCH - 1, rows), templates, firstAt.toISOString()],
    );
    process.stdout.write(`\rinserted ${Math.min(from + INSERT_BATCH - 1, rows).toLocaleString('en-US')} rows`);
  }
  process.stdout.write('\n');
  await db.query('analyze rm_transactions');
}

export interface ExportRead {
  /** CSV lines, the header's included: no cell of these rows holds a line break, so every LF ends one. */
  lines: number;
  bytes: number;
  seconds: number;
  /** The answer's X-Data-As-Of: set when the export was read from the replica. */
  dataAsOf: string | null;
}

/** One POST /export, read as fast as the client can; the lines are counted as they arrive (`onLines` after each chunk), not kept. */
export async function readExport(
  baseUrl: string,
  key: string,
  body: unknown,
  onLines?: (lines: number) => void,
): Promise<ExportRead> {
  const started = process.hrtime.bigint();
  const response = await fetch(`${baseUrl}/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`export ${JSON.stringify(body)}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    bytes += buffer.length;
    for (let at = buffer.indexOf(10); at >= 0; at = buffer.indexOf(10, at + 1)) lines++;
    onLines?.(lines);
  }
  return {
    lines,
    bytes,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    dataAsOf: response.headers.get('x-data-as-of'),
  };
}
