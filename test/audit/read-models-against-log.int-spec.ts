import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { setTimeout as pause } from 'node:timers/promises';
import { call, issueKey, onboardMerchant, revokeKey } from '../support/auth';
import { recordSale } from '../support/sales';
import { cutEntry } from '../support/tampering';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { readModelsCaughtUp } from '../support/read-models';
import { recordTip, tipCreated } from '../support/tips';

/**
 * The operator of the database edits the read models beside rm_transactions (keys, merchants, tips,
 * risk) and leaves the log alone (issue 48, item 4): `GET /admin/verify-read-models` replays the
 * log into scratch copies, names the table, the row and the field, and raises the chain alarm.
 */
describe('GET /admin/verify-read-models against an operator editing the read models with SQL', () => {
  let app: TestApp;
  let db: Database;
  let merchant: { key: string; id: string; keyId: string };
  let tipId: string;

  beforeEach(async () => {
    app = await startTestApp();
    db = app.app.get(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    const issued = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    merchant = { key: issued.key, id: merchantId, keyId: issued.api_key.id };
    const sale = await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 1100, tax_total_cents: 0 });
    tipId = (await recordTip(app, merchant.key, sale.id, { tip_amount: 100_000 })).id;
    const voided = await recordSale(app, merchant.key, merchant.id, { zip_code: '85004' });
    await tipCreated(app, merchant.key, '/transaction/void', {
      original_transaction_id: voided.id,
      void_reason: 'pricing_error',
      voided_by: 'e-2',
    });
    // The edits below are of rows the read models hold once they have applied these writes.
    await readModelsCaughtUp(db);
  });

  afterEach(() => app?.close());

  const voidsProjected = async () => {
    for (let tries = 0; tries < 500; tries++) {
      const rows = await db.query('select 1 from rm_void_totals where merchant_id = $1 and voids = 1', [merchant.id]);
      if (rows.length > 0) return;
      await pause(20);
    }
    throw new Error('the void analytics did not project the void within 10 s');
  };
  const verify = () => call(app, 'GET', '/admin/verify-read-models', { key: TEST_ADMIN_KEY });

  it('finds nothing to report in untouched read models, and raises no alarm', async () => {
    const { status, body } = await verify();
    expect(status).toBe(200);
    expect(body).toEqual({
      read_models: ['api-keys', 'merchants', 'tips', 'merchant-risk', 'override-report', 'void-analytics'],
      checked_count: expect.any(Number),
      difference_count: 0,
      differences: [],
    });
    expect(body.checked_count).toBeGreaterThanOrEqual(6);
    expect((await call(app, 'GET', '/health')).body.status).toBe('ok');
  });

  it('names a $100,000 tip edited to 1¢ in rm_tips and raises the chain alarm', async () => {
    await db.query('update rm_tips set amount_cents = 1 where tip_id = $1', [tipId]);
    const { status, body } = await verify();
    expect(status).toBe(200);
    expect(body.difference_count).toBe(1);
    expect(body.differences).toEqual([
      {
        read_model: 'tips',
        table: 'rm_tips',
        row: `tip_id=${tipId}`,
        field: 'amount_cents',
        stored: '1',
        from_log: '10000000',
      },
    ]);
    const health = await call(app, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.chain.alarms).toContainEqual({
      source: 'read-model',
      kind: 'rm_tips-differs',
      position: null,
      detail: `rm_tips differs from the log in 1 field(s); the first: tip_id=${tipId} amount_cents: stored 1, from the log 10000000`,
    });
  });

  it('names a row no entry gives, a deleted row, an undone revocation and an edited void total', async () => {
    await db.query(
      `insert into rm_merchants (merchant_id, name, environment, partner_id, onboarded_at)
       values ('m-forged', 'Forged', 'production', null, now())`,
    );
    await db.query('delete from rm_tips where tip_id = $1', [tipId]);
    expect((await revokeKey(app, merchant.keyId)).status).toBe(200);
    // The keys are built after the append: the edit undoes a revocation they hold.
    await readModelsCaughtUp(db);
    await db.query('update rm_api_keys set revoked_at = null where id = $1', [merchant.keyId]);
    // The void analytics are async: the edit waits until they hold the void.
    await voidsProjected();
    await db.query('update rm_void_totals set voids = voids - 1 where merchant_id = $1', [merchant.id]);
    const { body } = await verify();
    expect(
      body.differences.map(({ table, row, field, stored, from_log: fromLog }: Record<string, string | null>) => [
        table,
        row,
        field,
        stored === null ? null : 'stored',
        fromLog === null ? null : 'from log',
      ]),
    ).toEqual([
      ['rm_api_keys', `id=${merchant.keyId}`, 'revoked_at', 'stored', 'from log'],
      ['rm_merchants', 'merchant_id=m-forged', 'row', 'stored', null],
      ['rm_tips', `tip_id=${tipId}`, 'row', null, 'from log'],
      ['rm_void_totals', `merchant_id=${merchant.id}`, 'voids', 'stored', 'from log'],
    ]);
    expect(body.differences[0].stored).toBe('null');
    const alarms = (await call(app, 'GET', '/health')).body.chain.alarms;
    expect(alarms.map((alarm: { detail: string }) => alarm.detail)).toEqual(
      expect.arrayContaining([
        `rm_merchants differs from the log in 1 field(s); the first: merchant_id=m-forged row: stored ${body.differences[1].stored}, from the log (no such row)`,
        `rm_tips differs from the log in 1 field(s); the first: tip_id=${tipId} row: stored (no row), from the log ${body.differences[2].from_log}`,
      ]),
    );
  });

  describe('a read by id of a row the log does not hold', () => {
    const notFound = (id: string) => ({
      status: 404,
      body: { error: 'NOT_FOUND', message: `Transaction ${id} not found` },
    });
    const get = (path: string) => call(app, 'GET', path, { key: merchant.key });

    it('answers 404 for a sale cut from the log, its row left behind, and raises the chain alarm', async () => {
      const sale = await recordSale(app, merchant.key, merchant.id);
      // Its row written: the transaction list follows the log after the append.
      expect((await get(`/transactions?min_position=${sale.chain_position}`)).status).toBe(200);
      await cutEntry(db, sale.chain_position);
      expect(await get(`/transaction/${sale.id}`)).toMatchObject(notFound(sale.id));
      expect(await get(`/transaction/${sale.id}/receipt`)).toMatchObject(notFound(sale.id));
      const health = await call(app, 'GET', '/health');
      expect(health.status).toBe(503);
      expect(health.body.chain.alarms).toContainEqual({
        source: 'read-model',
        kind: 'row-without-entry',
        position: sale.chain_position,
        detail:
          `rm_transactions holds ${sale.id} at position ${sale.chain_position} with hash ${sale.auditHash}, ` +
          'but the log holds no such entry recording it: the transaction is answered as not found',
      });
    });

    it('answers 404 for a row copied from a real sale under another id, and refuses to void it', async () => {
      const sale = await recordSale(app, merchant.key, merchant.id);
      expect((await get(`/transactions?min_position=${sale.chain_position}`)).status).toBe(200);
      const forged = 'TXN-2026-11-21-FORGED02';
      await db.query(
        `insert into rm_transactions select $2, merchant_id, type, state, jurisdiction_id, payment_method, cashier_id,
         created_at, subtotal_cents, tax_total_cents, ledger_total_cents, cash_total_cents, rounding_delta_cents, cash_rounding_mode,
         compliance_status, fraud_score, risk_level, audit_hash, position, jsonb_set(detail, '{id}', to_jsonb($2::text)), history
         from rm_transactions where id = $1`,
        [sale.id, forged],
      );
      expect(await get(`/transaction/${forged}`)).toMatchObject(notFound(forged));
      const voided = await call(app, 'POST', '/transaction/void', {
        key: merchant.key,
        body: { original_transaction_id: forged, void_reason: 'pricing_error', voided_by: 'e-2' },
      });
      expect(voided).toMatchObject(notFound(forged));
      expect((await get(`/transaction/${sale.id}`)).status).toBe(200);
      expect((await call(app, 'GET', '/health')).body.chain.alarms).toContainEqual(
        expect.objectContaining({ kind: 'row-without-entry', position: sale.chain_position }),
      );
    });
  });
});
