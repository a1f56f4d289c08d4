import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSeedDir } from '../../src/jurisdiction/seed-loader';
import { parseJurisdictionRule } from '../../src/rules/jurisdiction-rule';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { AsyncProjectionRunner, rebuildProjections } from '../../src/platform/projections/runner';
import { PROJECTORS } from '../../src/projectors';
import { exportLog, parseExport, runVerifier, toExport } from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { rehashFrom } from '../../packages/tlog/test/chain';
import { ruleAt } from '../support/jurisdiction-rules';
import { changeData } from '../support/tampering';
import { recordSale } from '../support/sales';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const RULES_FILE = 'jurisdiction-rules.json';
const TIPS_FILE = 'tip-credit-rules.json';
/** Birmingham, AL: symmetrical rounding, permissive, so a merchant's `favor_customer` policy would round down. */
const BIRMINGHAM = '35203';
const SEATTLE = '98101';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const entriesOf = async (db: Database, type: string) =>
  db.query<{ position: string; hash: string; data: Record<string, unknown> }>(
    'select position, hash, data from events where event_type = $1 order by position',
    [type],
  );

const headOf = async (db: Database) =>
  Number((await db.query<{ position: string }>('select position from event_store_head'))[0].position);

/** The alarm `/health` reports for `readModel`, once the rule read-model check has found it. */
const alarmFor = (app: TestApp, readModel: string) =>
  waitFor(`an alarm about ${readModel}`, async () => {
    const health = await call(app, 'GET', '/health');
    return (health.body.chain.alarms as { detail: string }[]).find((alarm) => alarm.detail.startsWith(readModel));
  });

describe('rules in the log', () => {
  describe('the seed files, imported as entries', () => {
    let dir: string;
    let database: TestDatabase;
    const start = () => startTestApp({ env: { DATABASE_URL: database.url, SEED_DIR: dir } });

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'crcs-seeds-'));
      await cp(defaultSeedDir(), dir, { recursive: true });
      database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'embedded');
    });

    afterAll(async () => {
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    });

    it('imports every record at the first start, nothing at a restart with the same files, and only the changed records after a change', async () => {
      const rulesFile = JSON.parse(await readFile(join(dir, RULES_FILE), 'utf8')) as Record<string, unknown>[];
      const tipsFile = JSON.parse(await readFile(join(dir, TIPS_FILE), 'utf8')) as Record<string, unknown>[];
      let app = await start();
      let db = app.app.get<Database>(DATABASE);
      const rules = await entriesOf(db, 'JurisdictionRuleImported');
      const tips = await entriesOf(db, 'TipWageRuleImported');
      expect(rules).toHaveLength(rulesFile.length);
      expect(tips).toHaveLength(tipsFile.length);
      const rulesSha = sha256(await readFile(join(dir, RULES_FILE)));
      // Each record as the service applies it: the file's, with the fields it leaves out null.
      const parsed = rulesFile.map((record) => ({ ...parseJurisdictionRule(record) }));
      expect(rules.map(({ data }) => data.rule)).toEqual(expect.arrayContaining(parsed));
      expect(new Set(rules.map(({ data }) => `${String(data.seed_file)} ${String(data.seed_sha256)}`))).toEqual(
        new Set([`${RULES_FILE} ${rulesSha}`]),
      );
      expect(tips.map(({ data }) => data.rule)).toEqual(expect.arrayContaining(tipsFile));
      await app.close();

      app = await start();
      db = app.app.get<Database>(DATABASE);
      const head = await headOf(db);
      expect(await entriesOf(db, 'JurisdictionRuleImported')).toHaveLength(rulesFile.length);
      expect(await entriesOf(db, 'TipWageRuleImported')).toHaveLength(tipsFile.length);
      await app.close();

      // One rule's notes and one tip-wage row's figure change; everything else stays as it was.
      const arizona = rulesFile.findIndex((rule) => rule.lookup_key === 'AZ');
      rulesFile[arizona] = { ...rulesFile[arizona], notes: 'checked again by a test' };
      const flsa = tipsFile.findIndex((row) => row.state === 'US');
      tipsFile[flsa] = { ...tipsFile[flsa], notes: 'FLSA, checked again by a test' };
      await writeFile(join(dir, RULES_FILE), `${JSON.stringify(rulesFile, null, 2)}\n`);
      await writeFile(join(dir, TIPS_FILE), `${JSON.stringify(tipsFile, null, 2)}\n`);

      app = await start();
      db = app.app.get<Database>(DATABASE);
      try {
        const added = await db.query<{ event_type: string; data: Record<string, unknown> }>(
          `select event_type, data from events where position > $1 and event_type in ('JurisdictionRuleImported', 'TipWageRuleImported') order by position`,
          [head],
        );
        expect(added).toEqual([
          {
            event_type: 'JurisdictionRuleImported',
            data: {
              rule: { ...parseJurisdictionRule(rulesFile[arizona]) },
              seed_file: RULES_FILE,
              seed_sha256: sha256(await readFile(join(dir, RULES_FILE))),
            },
          },
          {
            event_type: 'TipWageRuleImported',
            data: {
              rule: tipsFile[flsa],
              seed_file: TIPS_FILE,
              seed_sha256: sha256(await readFile(join(dir, TIPS_FILE))),
            },
          },
        ]);
        const answer = await call(app, 'GET', '/jurisdiction/AZ', { key: TEST_ADMIN_KEY });
        expect(answer.body).toMatchObject({ lookup_key: 'AZ', notes: 'checked again by a test' });
      } finally {
        await app.close();
      }
    });
  });

  it("keeps an administrator's change made before the seed record was ever imported", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crcs-seeds-'));
    const database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'embedded');
    const start = () => startTestApp({ env: { DATABASE_URL: database.url, SEED_DIR: dir } });
    try {
      await cp(defaultSeedDir(), dir, { recursive: true });
      const rulesFile = JSON.parse(await readFile(join(dir, RULES_FILE), 'utf8')) as Record<string, unknown>[];
      const arizona = rulesFile.find((rule) => rule.lookup_key === 'AZ')!;
      // Arizona's record never imported (as in a log older than the import), and its version recorded by an administrator.
      await writeFile(join(dir, RULES_FILE), JSON.stringify(rulesFile.filter((rule) => rule !== arizona)));
      let app = await start();
      const changed = { ...arizona, notes: 'recorded by an administrator' };
      expect((await call(app, 'PUT', '/admin/jurisdictions/AZ', { key: TEST_ADMIN_KEY, body: changed })).status).toBe(
        201,
      );
      await app.close();

      await writeFile(join(dir, RULES_FILE), JSON.stringify(rulesFile));
      app = await start();
      try {
        const db = app.app.get<Database>(DATABASE);
        const imported = await entriesOf(db, 'JurisdictionRuleImported');
        expect(imported.map(({ data }) => (data.rule as { lookup_key: string }).lookup_key)).not.toContain('AZ');
        const answer = await call(app, 'GET', '/jurisdiction/AZ', { key: TEST_ADMIN_KEY });
        expect(answer.body).toMatchObject({ lookup_key: 'AZ', notes: 'recorded by an administrator' });
      } finally {
        await app.close();
      }
    } finally {
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('what a sale is priced under', () => {
    let app: TestApp;
    let db: Database;
    let merchant: { key: string; id: string };

    beforeEach(async () => {
      app = await startTestApp();
      db = app.app.get(DATABASE);
      const { merchant_id: merchantId } = await onboardMerchant(app);
      merchant = { key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key, id: merchantId };
    });

    afterEach(() => app?.close());

    const saleEntry = async (transactionId: string) =>
      (
        await db.query<{ position: string; data: Record<string, unknown> }>(
          `select position, data from events where event_type = 'TransactionRecorded' and data->>'transaction_id' = $1`,
          [transactionId],
        )
      )[0];

    it("names the log entries of its rule and of the merchant's policy", async () => {
      expect(
        (
          await call(app, 'PUT', `/merchant/${merchant.id}/rounding-policy`, {
            key: merchant.key,
            body: { rounding_policy: 'favor_customer' },
          })
        ).status,
      ).toBe(200);
      const sale = await recordSale(app, merchant.key, merchant.id, { zip_code: BIRMINGHAM });
      expect(sale.calculation.cash_total_cents).toBe(1000);
      const { data } = await saleEntry(sale.id);
      const named = async ({ position }: { position: number }) =>
        (
          await db.query<{ event_type: string; hash: string; data: Record<string, unknown> }>(
            'select event_type, hash, data from events where position = $1',
            [position],
          )
        )[0];
      const rule = await named(data.rule_entry as { position: number; hash: string });
      expect(rule).toMatchObject({ hash: (data.rule_entry as { hash: string }).hash, data: { rule: data.rule } });
      expect(['JurisdictionRuleImported', 'JurisdictionRuleChanged']).toContain(rule.event_type);
      expect(await named(data.policy_entry as { position: number; hash: string })).toMatchObject({
        event_type: 'RoundingPolicySet',
        hash: (data.policy_entry as { hash: string }).hash,
        data: { merchant_id: merchant.id, rounding_policy: 'favor_customer' },
      });
    });

    it('never applies a rule row inserted into rm_jurisdiction_rules by SQL, and raises the alarm', async () => {
      const before = await call(app, 'GET', `/jurisdiction/zip/${SEATTLE}`);
      const forged = ruleAt({ state: 'WA', county: 'King', city: 'Seattle', rounding_mode: 'mandatory_round_up' });
      await db.query(
        `insert into rm_jurisdiction_rules (version_key, rule, position) values ($1, $2, (select position from event_store_head) + 1000)`,
        [`${forged.lookup_key}|rounding|retail|`, forged],
      );
      const alarm = await alarmFor(app, 'rm_jurisdiction_rules');
      expect(alarm).toMatchObject({ source: 'read-model', kind: 'read-model-differs' });

      const sale = await recordSale(app, merchant.key, merchant.id, {
        zip_code: SEATTLE,
        subtotal_cents: 1001,
        tax_total_cents: 0,
      });
      expect(sale.calculation).toMatchObject({ jurisdiction: 'US-WA', cash_total_cents: 1000 });
      expect((await call(app, 'GET', `/jurisdiction/zip/${SEATTLE}`)).body).toEqual(before.body);
      expect((await saleEntry(sale.id)).data.rule).not.toMatchObject({ lookup_key: forged.lookup_key });
    });

    it('never applies a policy row inserted into rm_rounding_policies by SQL, and raises the alarm', async () => {
      await db.query(
        `insert into rm_rounding_policies (merchant_id, rounding_policy, set_at, position) values ($1, 'favor_customer', now(), (select position from event_store_head) + 1000)`,
        [merchant.id],
      );
      const sale = await recordSale(app, merchant.key, merchant.id, { zip_code: BIRMINGHAM });
      expect(sale.calculation).toMatchObject({ cash_total_cents: 1005, mode_source: 'rule' });
      expect((await saleEntry(sale.id)).data.policy_entry).toBeUndefined();
      expect(await alarmFor(app, 'rm_rounding_policies')).toMatchObject({
        source: 'read-model',
        kind: 'read-model-differs',
      });
    });

    it('rebuilds the rule and policy read models from the log to the same rows', async () => {
      await call(app, 'PUT', `/merchant/${merchant.id}/rounding-policy`, {
        key: merchant.key,
        body: { rounding_policy: 'favor_customer' },
      });
      await call(app, 'PUT', '/admin/jurisdictions/AZ-Maricopa', {
        key: TEST_ADMIN_KEY,
        body: ruleAt({ state: 'AZ', county: 'Maricopa' }),
      });
      const rows = async () => ({
        rules: await db.query('select * from rm_jurisdiction_rules order by version_key'),
        policies: await db.query('select * from rm_rounding_policies order by merchant_id'),
      });
      // The policy read model follows the log after the append.
      await app.app.get(AsyncProjectionRunner).drain();
      const live = await rows();
      expect(live.rules.length).toBeGreaterThan(60);
      expect(live.policies).toHaveLength(1);
      await rebuildProjections(db, PROJECTORS);
      expect(await rows()).toEqual(live);
    });
  });

  describe('a sale whose rule entry was edited in the log', () => {
    let app: TestApp;
    let db: Database;
    let log: StoredEvent[];
    let sale: StoredEvent;
    let rule: StoredEvent;
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'crcs-rule-edit-'));
      app = await startTestApp();
      db = app.app.get(DATABASE);
      const { merchant_id: merchantId } = await onboardMerchant(app);
      const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
      await recordSale(app, key, merchantId, { zip_code: BIRMINGHAM });
      log = parseExport(await exportLog(app));
      sale = log.find((e) => e.type === 'TransactionRecorded')!;
      const { position } = sale.data.rule_entry as { position: number };
      rule = log.find((e) => e.position === position)!;
    });

    afterAll(async () => {
      await app?.close();
      await rm(dir, { recursive: true, force: true });
    });

    const lenient = (e: StoredEvent): StoredEvent =>
      e.position === rule.position
        ? { ...e, data: { ...e.data, rule: { ...(e.data.rule as object), rounding_mode: 'mandatory_round_up' } } }
        : e;

    it('is a rule_reference break for the offline verifier, even with every hash after the edit recomputed', async () => {
      const file = join(dir, 'rewritten.ndjson');
      await writeFile(file, toExport(rehashFrom(log.map(lenient), rule.position)));
      const { status, stdout } = await runVerifier([file]);
      expect(status).toBe(1);
      expect(JSON.parse(stdout)).toMatchObject({
        break_count: 1,
        breaks: [
          {
            kind: 'rule_reference',
            position: sale.position,
            entry_id: sale.entryId,
            detail: expect.stringContaining(`names the rule entry at position ${rule.position} with hash ${rule.hash}`),
          },
        ],
      });
    });

    it('is a rule_reference break for GET /admin/verify-hash-chain', async () => {
      await changeData(db, rule.position, ['rule', 'rounding_mode'], 'mandatory_round_up');
      const { status, body } = await call(app, 'GET', '/admin/verify-hash-chain', { key: TEST_ADMIN_KEY });
      expect(status).toBe(200);
      expect(body.breaks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'modified', position: rule.position }),
          expect.objectContaining({
            kind: 'rule_reference',
            position: sale.position,
            detail: expect.stringContaining('the rule it was priced under was changed'),
          }),
        ]),
      );
    });
  });
});
