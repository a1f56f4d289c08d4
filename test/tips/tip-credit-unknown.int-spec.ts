import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEED_DATA } from '../../src/jurisdiction/jurisdiction.tokens';
import { defaultSeedDir, loadSeeds, SEED_FILES } from '../../src/jurisdiction/seed-loader';
import { Clock } from '../../src/platform/clock';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { tipCreditKey, type TipCreditRule } from '../../src/rules/seed-data';
import { tipCreditRuleOn } from '../../src/rules/tip-credit';
import type { TipCreditCheckView } from '../../src/tips/tip.response.dto';
import type { ValidateTipCreditResponse } from '../../src/tips/validate-tip-credit/validate-tip-credit.response.dto';
import { issueKey, onboardMerchant } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { startTestApp, type TestApp } from '../support/test-app';
import { tipCreated } from '../support/tips';
import { readModelsCaughtUp } from '../support/read-models';

const TODAY = '2026-11-29';

/**
 * Places with their own minimum-wage law. Where the shipped seeds have no record for one yet, the test adds one
 * with every figure null, through the same loader the service uses: the answer there must be what it is for any
 * locality whose figures are missing. Once the seeds carry the place's own record, that record is used instead.
 */
const LOCALITIES = [
  { state: 'IL', city: 'Chicago' },
  { state: 'CO', city: 'Denver' },
  { state: 'WA', city: 'Seattle' },
  { state: 'CA', city: 'San Francisco' },
];

function seedsWithLocalities(dir: string): void {
  cpSync(defaultSeedDir(), dir, { recursive: true });
  const shipped = loadSeeds(dir).tipCreditRules;
  const file = join(dir, SEED_FILES.tipCredit);
  const rules = JSON.parse(readFileSync(file, 'utf8')) as TipCreditRule[];
  for (const place of LOCALITIES) {
    if (shipped.has(tipCreditKey(place))) continue;
    rules.push({
      ...place,
      minimum_wage: null,
      tipped_minimum_cash_wage: null,
      max_tip_credit: null,
      tip_credit_allowed: null,
      notes: 'Test stand-in: a locality with its own minimum-wage law whose figures are not known.',
      effective_date: '2025-01-01',
      source: [],
      source_kind: 'news',
      confidence: 'low',
      last_verified: TODAY,
    });
  }
  writeFileSync(file, JSON.stringify(rules));
}

describe('POST /tip/validate-compliance where the rule data cannot settle the check', () => {
  const seedDir = mkdtempSync(join(tmpdir(), 'tip-seeds-'));
  seedsWithLocalities(seedDir);
  const seeds = loadSeeds(seedDir);
  let app: TestApp;
  let db: Database;
  let key: string;

  const check = async (body: Record<string, unknown>): Promise<TipCreditCheckView> =>
    ((await tipCreated(app, key, '/tip/validate-compliance', body)) as ValidateTipCreditResponse).compliance;

  beforeAll(async () => {
    const clock = new FixedClock(new Date(`${TODAY}T12:00:00.000Z`));
    app = await startTestApp({
      override: (builder) =>
        builder.overrideProvider(Clock).useValue(clock).overrideProvider(SEED_DATA).useValue(seeds),
    });
    db = app.app.get<Database>(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    key = (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key;
  });

  afterAll(async () => {
    await app?.close();
    rmSync(seedDir, { recursive: true, force: true });
  });

  it.each(LOCALITIES)('is never compliant in $city at $state’s own figures', async ({ state, city }) => {
    const statewide = tipCreditRuleOn(seeds.tipCreditRules, state, TODAY)!;
    const cash = statewide.tipped_minimum_cash_wage!;
    const answer = await check({
      state,
      city,
      hourly_wage: cash,
      average_tips_per_hour: Math.round((statewide.minimum_wage! - cash) * 100) / 100,
    });
    expect(answer.compliant).not.toBe(true);
    expect(answer.status).not.toBe('compliant');
    expect(answer.rules.local).toMatchObject({ state, city });
    expect(answer.notes.join(' ')).not.toMatch(/state's and FLSA's/);
    // Figures null: unknown, with the locality named; figures known and higher: the failed requirement is listed.
    if (answer.status === 'unknown') {
      expect(answer).toMatchObject({ compliant: null, reason: 'LOCAL_MINIMUM_UNKNOWN', failures: [] });
      expect(answer.unknowns).toContainEqual(
        expect.objectContaining({ reason: 'LOCAL_MINIMUM_UNKNOWN', jurisdiction: `${city}, ${state}` }),
      );
    } else {
      expect(answer.failures).toContainEqual(
        expect.objectContaining({ jurisdiction: `${city}, ${state}`, met: false }),
      );
    }
  });

  it('answers Chicago from a ZIP as from the city, records the verdict, and names the record and its confidence', async () => {
    const answer = await check({ state: 'IL', zip_code: '60601', hourly_wage: 9, average_tips_per_hour: 8 });
    expect(answer).toMatchObject({
      city: 'Chicago',
      status: 'unknown',
      compliant: null,
      reason: 'LOCAL_MINIMUM_UNKNOWN',
      confidence: 'low',
      applied: ['US', 'IL', 'Chicago, IL'],
      rules: { local: { city: 'Chicago', effective_date: '2026-07-01', minimum_wage: null, confidence: 'low' } },
    });
    const [event] = await db.query<{ data: { status: string; compliant: boolean | null } }>(
      'select data from events where stream_id = $1',
      [`tipCreditCheck-${answer.id}`],
    );
    expect(event.data).toMatchObject({ status: 'unknown', compliant: null, reason: 'LOCAL_MINIMUM_UNKNOWN' });
    await readModelsCaughtUp(db);
    const rows = await db.query<{ status: string; compliant: boolean | null }>(
      'select status, compliant from rm_tip_credit_checks where check_id = $1',
      [answer.id],
    );
    expect(rows).toEqual([{ status: 'unknown', compliant: null }]);
  });

  it("is non_compliant in Chicago when Illinois's own figures fail, listing each failed requirement", async () => {
    const answer = await check({ state: 'IL', city: 'Chicago', hourly_wage: 8.5, average_tips_per_hour: 8 });
    expect(answer).toMatchObject({ status: 'non_compliant', compliant: false, reason: null });
    expect(answer.failures.map((f) => [f.requirement, f.required, f.actual])).toEqual([['STATE_CASH_WAGE', 9, 8.5]]);
  });

  describe('New York, whose figures differ by region, with no place named', () => {
    it('is unknown (REGION_AMBIGUOUS) when the verdict differs by region, weighing each region', async () => {
      const answer = await check({ state: 'NY', hourly_wage: 16.5, average_tips_per_hour: 1 });
      expect(answer).toMatchObject({
        status: 'unknown',
        compliant: null,
        reason: 'REGION_AMBIGUOUS',
        failures: [],
        county: null,
      });
      expect(answer.unknowns[0]).toMatchObject({ reason: 'REGION_AMBIGUOUS', jurisdiction: 'NY' });
      expect(answer.rules.regions).toEqual([
        expect.objectContaining({ region: 'New York City, Long Island and Westchester' }),
      ]);
    });

    it('is compliant when the wage meets the highest region, and answers under that region', async () => {
      const answer = await check({ state: 'NY', hourly_wage: 17, average_tips_per_hour: 0 });
      expect(answer).toMatchObject({
        status: 'compliant',
        compliant: true,
        reason: null,
        applied: ['US', 'NY: New York City, Long Island and Westchester'],
      });
    });

    it('is non_compliant when the wage fails even the lowest region', async () => {
      const answer = await check({ state: 'NY', hourly_wage: 10, average_tips_per_hour: 5 });
      expect(answer).toMatchObject({ status: 'non_compliant', compliant: false, applied: ['US', 'NY'] });
      expect(answer.failures).toEqual([expect.objectContaining({ requirement: 'STATE_MINIMUM_WAGE', required: 16 })]);
    });

    it('answers a county in the region by that region alone', async () => {
      const answer = await check({ state: 'NY', county: 'Kings', hourly_wage: 16.5, average_tips_per_hour: 0 });
      expect(answer).toMatchObject({ status: 'non_compliant', rules: { regions: [] } });
    });
  });
});
