import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, unparse } from 'papaparse';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { exportLog, runExportCheck } from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { recordSale } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

/**
 * The operator of the database edits the read models, from which `GET /transaction`, receipts and
 * the regulatory CSV export answer, and leaves the log alone (issue 33, "Read models answer to the
 * log"): `GET /admin/verify-transactions` finds the edit in rm_transactions and raises the chain
 * alarm, and `verify-export` finds an edited CSV row from the log's export alone.
 */
describe('an operator editing the read models with SQL', () => {
  let app: TestApp;
  let db: Database;
  let dir: string;
  let merchant: { key: string; id: string };
  const sales: string[] = [];
  let records: number;

  beforeEach(async () => {
    app = await startTestApp();
    db = app.app.get(DATABASE);
    dir = await mkdtemp(join(tmpdir(), 'crcs-read-models-'));
    const { merchant_id: merchantId } = await onboardMerchant(app);
    merchant = { key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key, id: merchantId };
    sales.length = 0;
    // $10.03 in Phoenix: $10.05 in cash.
    for (let i = 0; i < 4; i++)
      sales.push((await recordSale(app, merchant.key, merchant.id, { zip_code: '85004', cashier_id: `c-${i}` })).id);
    const change = async (path: string, body: Record<string, unknown>) =>
      expect((await call(app, 'POST', path, { key: merchant.key, body })).status).toBe(201);
    await change('/transaction/override', {
      transaction_id: sales[1],
      employee_id: 'e-1',
      employee_name: 'Ann',
      reason: 'pricing-error',
      new_cash_total_cents: 1000,
    });
    await change('/transaction/void', {
      original_transaction_id: sales[2],
      void_reason: 'pricing_error',
      voided_by: 'e-2',
    });
    await change('/transaction/refund', {
      original_transaction_id: sales[3],
      refund_amount: 503,
      void_reason: 'wrong_item',
      voided_by: 'e-2',
    });
    records = sales.length + 2;
    // The transaction list follows the log after the append: read once it holds every entry.
    const [{ position }] = await db.query<{ position: string }>('select position from event_store_head');
    expect((await call(app, 'GET', `/transactions?min_position=${position}`, { key: merchant.key })).status).toBe(200);
  });

  afterEach(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const verify = () => call(app, 'GET', '/admin/verify-transactions', { key: TEST_ADMIN_KEY });
  const positionOf = async (id: string) =>
    Number(
      (await db.query<{ position: string }>('select position from rm_transactions where id = $1', [id]))[0].position,
    );

  it('finds nothing to report in an untouched read model, and raises no alarm', async () => {
    const { status, body } = await verify();
    expect(status).toBe(200);
    expect(body).toEqual({ checked_count: records, difference_count: 0, differences: [] });
    expect((await call(app, 'GET', '/health')).body.status).toBe('ok');
  });

  it('names a rounded total changed in rm_transactions, field by field, and raises the chain alarm', async () => {
    await db.query(
      `update rm_transactions set cash_total_cents = 1100, detail = jsonb_set(detail, '{calculation,cash_total_cents}', '1100') where id = $1`,
      [sales[0]],
    );
    const position = await positionOf(sales[0]);
    const { status, body } = await verify();
    expect(status).toBe(200);
    expect(body).toEqual({
      checked_count: records,
      difference_count: 2,
      differences: [
        { transaction_id: sales[0], position, field: 'cash_total_cents', stored: '1100', from_log: '1005' },
        {
          transaction_id: sales[0],
          position,
          field: 'detail.calculation.cash_total_cents',
          stored: '1100',
          from_log: '1005',
        },
      ],
    });
    expect(await call(app, 'GET', `/transaction/${sales[0]}`, { key: merchant.key })).toMatchObject({
      body: { transaction: { calculation: { cash_total_cents: 1100 } } },
    });
    const health = await call(app, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.chain.alarms).toContainEqual({
      source: 'read-model',
      kind: 'read-model-differs',
      position,
      detail: `rm_transactions differs from the log in 2 field(s); the first: ${sales[0]} cash_total_cents: stored 1100, from the log 1005`,
    });
  });

  it('names a sale whose void was taken out of its row, a row deleted, and a row the log never recorded', async () => {
    const voided = await positionOf(sales[2]);
    await db.query(
      `update rm_transactions set detail = detail || '{"state": "completed", "void_transaction_id": null}' where id = $1`,
      [sales[2]],
    );
    const deleted = await positionOf(sales[0]);
    await db.query('delete from rm_transactions where id = $1', [sales[0]]);
    await db.query(
      `insert into rm_transactions select 'TXN-2026-11-21-FORGED00', merchant_id, type, state, jurisdiction_id, payment_method, cashier_id,
      created_at, subtotal_cents, tax_total_cents, ledger_total_cents, cash_total_cents, rounding_delta_cents, cash_rounding_mode, compliance_status,
      fraud_score, risk_level, audit_hash, position, detail, history from rm_transactions where id = $1`,
      [sales[1]],
    );
    const { body } = await verify();
    expect(body.difference_count).toBe(4);
    expect(
      body.differences.map(
        ({ transaction_id: transactionId, field, stored, from_log: fromLog }: Record<string, unknown>) => [
          transactionId,
          field,
          stored === null ? null : 'stored',
          fromLog,
        ],
      ),
    ).toEqual([
      [sales[0], 'row', null, expect.stringContaining(`"id":"${sales[0]}"`)],
      ['TXN-2026-11-21-FORGED00', 'row', 'stored', null],
      [sales[2], 'detail.state', 'stored', '"voided"'],
      [sales[2], 'detail.void_transaction_id', 'stored', expect.stringMatching(/^"TXN-/)],
    ]);
    expect(body.differences[0].position).toBe(deleted);
    expect(body.differences[2].position).toBe(voided);
  });

  describe('verify-export, with the CSV export and the log export alone', () => {
    const files = async (csv: string) => {
      await writeFile(join(dir, 'audit.ndjson'), await exportLog(app));
      await writeFile(join(dir, 'export.csv'), csv);
      return [join(dir, 'export.csv'), '--log', join(dir, 'audit.ndjson')];
    };
    const exportCsv = async (mode: string) => {
      const answer = await call(app, 'POST', '/export', { key: merchant.key, body: { export_mode: mode } });
      expect(answer.status).toBe(200);
      return answer.body as string;
    };

    it.each(['standard', 'full', 'summary'])(
      'passes an untouched %s export: every row recomputed from the events',
      async (mode) => {
        const { status, stdout, stderr } = await runExportCheck(await files(await exportCsv(mode)));
        expect({ status, stderr }).toEqual({
          status: 0,
          stderr: `OK: ${records} rows, every cell as the log's ${records} transactions give it\n`,
        });
        expect(JSON.parse(stdout)).toEqual({ row_count: records, difference_count: 0, differences: [] });
      },
    );

    it('names an edited cell of the file: row, field, the exported value and the log’s', async () => {
      const csv = await exportCsv('standard');
      const { data: rows } = parse<string[]>(csv, { skipEmptyLines: true });
      const row = rows.findIndex((cells) => cells[0] === sales[0]);
      const column = rows[0].indexOf('cash_total_cents');
      expect(rows[row][column]).toBe('1005');
      rows[row][column] = '1000';
      const { status, stdout, stderr } = await runExportCheck(await files(unparse(rows, { newline: '\r\n' })));
      expect(status).toBe(1);
      expect(JSON.parse(stdout).differences).toEqual([
        { row: row + 1, transaction_id: sales[0], field: 'cash_total_cents', exported: '1000', from_log: '1005' },
      ]);
      expect(stderr).toBe(
        `DIFFERENT: 1 cells in ${records} rows are not what the log says\n  row ${row + 1} (${sales[0]}), cash_total_cents: exported "1000", from the log "1005"\n`,
      );
    });

    it('names the export of a read model edited by SQL, and a row of a transaction the log does not hold', async () => {
      await db.query(
        `update rm_transactions set detail = jsonb_set(detail, '{calculation,cash_total_cents}', '1100') where id = $1`,
        [sales[0]],
      );
      const csv = await exportCsv('summary');
      const forged = csv
        .split('\r\n')
        .find((line) => line.startsWith(`${sales[0]},`))!
        .replace(sales[0], 'TXN-2026-11-21-FORGED00');
      const { status, stdout } = await runExportCheck(await files(`${csv}${forged}\r\n`));
      expect(status).toBe(1);
      const { differences } = JSON.parse(stdout);
      expect(
        differences.map(
          ({ transaction_id: transactionId, field, exported, from_log: fromLog }: Record<string, unknown>) => [
            transactionId,
            field,
            exported,
            fromLog,
          ],
        ),
      ).toEqual([
        [sales[0], 'cash_total_cents', '1100', '1005'],
        [sales[0], 'cash_total_dollars', '11.00', '10.05'],
        ['TXN-2026-11-21-FORGED00', 'transaction_id', 'TXN-2026-11-21-FORGED00', null],
      ]);
    });

    it('compares a CSV with the log as it stood: --as-of leaves out a refund made after the file', async () => {
      const csv = await exportCsv('standard');
      const madeAt = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(
        (
          await call(app, 'POST', '/transaction/refund', {
            key: merchant.key,
            body: {
              original_transaction_id: sales[0],
              refund_amount: 500,
              void_reason: 'wrong_item',
              voided_by: 'e-2',
            },
          })
        ).status,
      ).toBe(201);
      const args = await files(csv);
      expect((await runExportCheck(args)).status).toBe(1);
      expect(await runExportCheck([...args, '--as-of', madeAt])).toMatchObject({ status: 0 });
    });
  });
});
