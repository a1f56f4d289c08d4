import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AsyncProjectionRunner, rebuildProjections } from '../../src/platform/projections/runner';
import { PROJECTORS } from '../../src/projectors';
import { readRecordedRules } from '../../src/jurisdiction/read-model/jurisdiction-rules.projector';
import { Clock } from '../../src/platform/clock';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { JurisdictionRuleStore } from '../../src/jurisdiction/rule-store';
import { recordRule } from '../support/jurisdiction-rules';
import { listRules } from '../../src/jurisdiction/rule-views';
import type { JurisdictionRule } from '../../src/rules/jurisdiction-rule';
import { SEED_DATA } from '../../src/jurisdiction/jurisdiction.tokens';
import { SEED_FILES, defaultSeedDir, loadSeeds } from '../../src/jurisdiction/seed-loader';
import { FixedClock } from '../support/fixed-clock';
import { expectConformance } from '../support/openapi';
import { createTestDatabase } from '../support/test-database';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/test-app';
import { WAIT_LIMIT_MS } from '../support/wait';

const ADMIN_API_KEY = 'test-admin-key-0123456789';
/** "Today" for every app here: lookups without a date resolve on it. */
const TODAY = '2026-10-01';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** As `call` of test/support/auth.ts, every answer is checked against the service's OpenAPI document. */
async function call(baseUrl: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { 'x-api-key': ADMIN_API_KEY, ...init.headers },
  });
  const text = await response.text();
  const answer = { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  await expectConformance(baseUrl, init.method ?? 'GET', path, answer);
  return answer;
}

function putRule(
  baseUrl: string,
  lookupKey: string,
  rule: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return call(baseUrl, `/admin/jurisdictions/${encodeURIComponent(lookupKey)}`, {
    method: 'PUT',
    body: JSON.stringify(rule),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function startApp(options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({
    ...options,
    env: { ADMIN_API_KEY, ...options.env },
    override: (builder) => builder.overrideProvider(Clock).useValue(new FixedClock(new Date(`${TODAY}T12:00:00.000Z`))),
  });
}

const seedRules = loadSeeds().rules;
function seedRule(lookupKey: string): JurisdictionRule {
  return structuredClone(seedRules.find((rule) => rule.lookup_key === lookupKey && rule.rule_type === 'rounding')!);
}

/** A state law an administrator records, with the lookup_key left to the path. */
function enactedStateRule(state: string, fields: Partial<JurisdictionRule>): Omit<JurisdictionRule, 'lookup_key'> {
  const { lookup_key: _key, ...rule } = {
    ...seedRule(state),
    status: 'enacted' as const,
    rounding_mode: 'mandatory_round_down' as const,
    enforcement: 'mandatory' as const,
    legislation: `${state} Act 2026-1 (test)`,
    source: ['https://legislature.example.test/act-2026-1'],
    notes: 'Recorded by the e2e test.',
    last_verified: '2026-09-20',
    ...fields,
  };
  return rule;
}

/** Asks until `check` passes or `ms` runs out; returns the last answer. */
async function eventually(ms: number, ask: () => Promise<Answer>, check: (answer: Answer) => boolean): Promise<Answer> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await ask();
    if (check(answer) || Date.now() > deadline) return answer;
    await sleep(100);
  }
}

const CITABLE = {
  legislation: expect.anything(),
  source: expect.any(Array),
  notes: expect.any(String),
  last_verified: expect.any(String),
  source_kind: expect.any(String),
  confidence: expect.any(String),
};

const NEWEST_VERIFIED = seedRules
  .map((rule) => rule.last_verified)
  .sort()
  .at(-1);

/** Seeded records stale on TODAY, counted here from docs/design.md's rule rather than by the resolver. */
const DAY_MS = 86_400_000;
const staleSeeds = (today: string) =>
  seedRules.filter(
    (rule) =>
      (Date.parse(today) - Date.parse(rule.last_verified)) / DAY_MS > 90 ||
      // A bill past its session (or with none recorded) is stale however recently it was checked.
      (['pending', 'proposed'].includes(rule.status) && (rule.session_ends === null || rule.session_ends < today)),
  );

describe('jurisdiction over HTTP', () => {
  let testApp: TestApp;
  const get = (path: string) => call(testApp.baseUrl, path);
  const headPosition = async () => (await testApp.app.get(EventStore).head()).position;

  beforeAll(async () => {
    testApp = await startApp();
  });

  afterAll(() => testApp?.close());

  describe('GET /health', () => {
    it('reports when the jurisdiction data was last verified, how much is stale, the counts, and the enforced rounding rules', async () => {
      const { status, body } = await get('/health');
      expect(status).toBe(200);
      expect(staleSeeds(TODAY).length).toBeGreaterThan(0);
      expect(body.jurisdiction_data).toEqual({
        last_verified: NEWEST_VERIFIED,
        stale: staleSeeds(TODAY).length,
        zip_codes: 33_791,
        rules: 66,
      });
      expect(body.enforced_rules).toContainEqual({ citation: '7 CFR 278.2', rule: 'EBT tenders are never rounded' });
    });
  });

  describe('GET /jurisdiction/{state}', () => {
    it("answers the state's enacted rule, citable, with the hierarchy down to federal", async () => {
      const { status, body } = await get('/jurisdiction/AZ');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        lookup_key: 'AZ',
        jurisdiction_id: 'US-AZ',
        jurisdiction_level: 'state',
        rounding_mode: 'swedish_rounding',
        enforcement: 'mandatory',
        status: 'enacted',
        legislation: expect.stringContaining('SB 1108'),
        date: TODAY,
        location: { zip: null, state: 'AZ', county: null, city: null, county_fips: null },
        warnings: [],
      });
      expect(body.source.length).toBeGreaterThan(0);
      expect(body).toMatchObject(CITABLE);
      expect(body.hierarchy).toEqual([
        {
          level: 'state',
          name: 'AZ',
          applied: true,
          rules: [expect.objectContaining({ lookup_key: 'AZ', applied: true, ...CITABLE })],
        },
        {
          level: 'federal',
          name: 'US',
          applied: false,
          rules: [
            expect.objectContaining({
              lookup_key: 'US',
              applied: false,
              not_applied_reason: 'not_enacted',
              ...CITABLE,
            }),
          ],
        },
      ]);
    });

    it('takes the state code in any case', async () => {
      expect((await get('/jurisdiction/az')).body.lookup_key).toBe('AZ');
    });

    it('applies the federal default where the state rule is only pending, and lists the pending one', async () => {
      const { status, body } = await get('/jurisdiction/FL');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        lookup_key: 'US',
        jurisdiction_level: 'federal',
        rounding_mode: 'symmetrical_rounding',
      });
      expect(body.hierarchy[0]).toMatchObject({
        level: 'state',
        applied: false,
        rules: [{ lookup_key: 'FL', status: 'pending', applied: false, not_applied_reason: 'not_enacted' }],
      });
    });

    it('resolves on the date asked: Alabama applies from 2026-04-17', async () => {
      const before = await get('/jurisdiction/AL?date=2026-04-16');
      const after = await get('/jurisdiction/AL?date=2026-04-17');
      expect(before.body).toMatchObject({ lookup_key: 'US', date: '2026-04-16' });
      expect(before.body.hierarchy[0].rules[0]).toMatchObject({
        lookup_key: 'AL',
        not_applied_reason: 'not_yet_in_force',
      });
      expect(after.body).toMatchObject({ lookup_key: 'AL', jurisdiction_level: 'state', date: '2026-04-17' });
    });

    it('answers an unknown state with 404 NOT_FOUND', async () => {
      const { status, body } = await get('/jurisdiction/ZZ');
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'NOT_FOUND', message: 'no jurisdiction data for state ZZ' });
      expect((await get('/jurisdiction/ZZ/Some/Where')).status).toBe(404);
    });

    it.each([
      ['/jurisdiction/Arizona', 'state'],
      ['/jurisdiction/A1/Maricopa', 'state'],
      ['/jurisdiction/AZ?date=2026-02-30', 'date'],
      ['/jurisdiction/AZ/Maricopa?date=today', 'date'],
    ])('answers %s with 400 naming %s', async (path, field) => {
      const { status, body } = await get(path);
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'VALIDATION_ERROR',
        message: expect.any(String),
        details: [{ field, messages: [expect.any(String)] }],
      });
    });

    it('rejects an unknown query parameter', async () => {
      const { status, body } = await get('/jurisdiction/AZ?zip=85004');
      expect(status).toBe(400);
      expect(body.details).toEqual([{ field: 'zip', messages: ['property zip should not exist'] }]);
    });
  });

  describe('GET /jurisdiction/{state}/{county}[/{city}]', () => {
    it('falls back to the state rule where the county has none, showing the empty county level', async () => {
      const { status, body } = await get('/jurisdiction/AZ/Maricopa%20County');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        lookup_key: 'AZ',
        jurisdiction_level: 'state',
        location: { county: 'Maricopa', county_fips: '04013' },
      });
      expect(
        body.hierarchy.map((level: { level: string; rules: unknown[] }) => [level.level, level.rules.length]),
      ).toEqual([
        ['county', 0],
        ['state', 1],
        ['federal', 1],
      ]);
    });

    it('lists a city ordinance that does not round without applying it: New York City', async () => {
      const { status, body } = await get('/jurisdiction/ny/kings/New%20York%20City');
      expect(status).toBe(200);
      expect(body).toMatchObject({ lookup_key: 'US', jurisdiction_level: 'federal' });
      expect(body.hierarchy[0]).toEqual({
        level: 'city',
        name: 'New York City',
        applied: false,
        rules: [
          expect.objectContaining({
            lookup_key: 'NY-Kings-New York City',
            rule_type: 'cash_acceptance',
            applied: false,
            not_applied_reason: 'not_a_rounding_rule',
            ...CITABLE,
          }),
        ],
      });
    });

    it('matches names however they are spelt, and warns about a county it does not know', async () => {
      const stLouis = await get('/jurisdiction/MO/saint%20louis%20city/St.%20Louis');
      expect(stLouis.body.location).toMatchObject({
        county: 'St. Louis city',
        county_fips: '29510',
        city: 'Saint Louis',
      });
      const atlantis = await get('/jurisdiction/AZ/Atlantis');
      expect(atlantis.status).toBe(200);
      expect(atlantis.body).toMatchObject({ lookup_key: 'AZ', warnings: [{ code: 'UNKNOWN_COUNTY' }] });
    });
  });

  describe('GET /jurisdiction/zip/{zip_code}', () => {
    it('answers the applied rule with the whole city, county, state and federal hierarchy', async () => {
      const { status, body } = await get('/jurisdiction/zip/85004');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        lookup_key: 'AZ',
        jurisdiction_level: 'state',
        rounding_mode: 'swedish_rounding',
        date: TODAY,
        location: { zip: '85004', state: 'AZ', county: 'Maricopa', city: 'Phoenix', county_fips: '04013' },
        warnings: [],
        ...CITABLE,
      });
      expect(
        body.hierarchy.map(({ level, name, applied }: { level: string; name: string; applied: boolean }) => [
          level,
          name,
          applied,
        ]),
      ).toEqual([
        ['city', 'Phoenix', false],
        ['county', 'Maricopa', false],
        ['state', 'AZ', true],
        ['federal', 'US', false],
      ]);
    });

    it('is not taken for a state "zip" and a county: the zip route wins', async () => {
      const { status, body } = await get('/jurisdiction/zip/11201');
      expect(status).toBe(200);
      expect(body.location).toMatchObject({ zip: '11201', state: 'NY', county: 'Kings', city: 'Brooklyn' });
      expect(body.hierarchy[0].rules[0]).toMatchObject({ lookup_key: 'NY-Kings-New York City' });
      // One segment after /jurisdiction is a state, and "zip" is not one.
      expect((await get('/jurisdiction/zip')).body.details).toEqual([
        { field: 'state', messages: [expect.any(String)] },
      ]);
    });

    it.each(['1234', '123456', '12345-6789', 'abcde'])('answers the malformed ZIP %s with 400', async (zip) => {
      const { status, body } = await get(`/jurisdiction/zip/${zip}`);
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'VALIDATION_ERROR',
        message: expect.stringContaining('5 digits'),
        details: [{ field: 'zip_code', messages: [expect.stringContaining('5 digits')] }],
      });
    });

    it('answers a well-formed ZIP that is not in the data with 404', async () => {
      const { status, body } = await get('/jurisdiction/zip/20500');
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'NOT_FOUND', message: 'ZIP 20500 is not in the ZIP data' });
    });
  });

  describe('GET /jurisdictions', () => {
    it('lists every rule, each citable', async () => {
      const { status, body } = await get('/jurisdictions');
      expect(status).toBe(200);
      expect(body.count).toBe(66);
      expect(body.rules).toHaveLength(66);
      // A no-legislation record has no bill to name; every record says where it was read and how sure it is.
      for (const rule of body.rules)
        expect(rule).toMatchObject({ ...CITABLE, legislation: rule.legislation === null ? null : expect.any(String) });
      expect(new Set(body.rules.map((rule: JurisdictionRule) => rule.status))).toEqual(
        new Set(['enacted', 'pending', 'proposed', 'failed', 'no_legislation']),
      );
    });

    it('filters by status and state', async () => {
      const pending = await get('/jurisdictions?status=pending');
      expect(pending.body.rules.map((rule: JurisdictionRule) => rule.lookup_key)).toEqual([
        'FL',
        'HI',
        'IA',
        'NY',
        'OK',
        'OR',
        'VA',
      ]);
      const enactedInNewYork = await get('/jurisdictions?status=enacted&state=ny');
      expect(enactedInNewYork.body.rules.map((rule: JurisdictionRule) => rule.jurisdiction_level)).toEqual(
        Array(5).fill('city'),
      );
    });

    it.each([
      ['/jurisdictions?status=repealed', 'status'],
      ['/jurisdictions?state=A1', 'state'],
      ['/jurisdictions?sort=name', 'sort'],
      ['/jurisdictions?status=enacted&status=pending', 'status'],
    ])('answers %s with 400 naming %s', async (path, field) => {
      const { status, body } = await get(path);
      expect(status).toBe(400);
      expect(body.error).toBe('VALIDATION_ERROR');
      expect(body.details).toEqual([{ field, messages: [expect.any(String)] }]);
    });
  });

  describe('GET /version', () => {
    it('lists the jurisdiction routes', async () => {
      const { body } = await call(testApp.baseUrl, '/version');
      expect(body.endpoints).toEqual(
        expect.arrayContaining(
          [
            '/jurisdiction/{state}',
            '/jurisdiction/{state}/{county}',
            '/jurisdiction/{state}/{county}/{city}',
            '/jurisdiction/zip/{zip_code}',
            '/jurisdictions',
          ].map((path) => ({ method: 'GET', path: `/api/v1${path}` })),
        ),
      );
      expect(body.endpoints).toContainEqual({ method: 'PUT', path: '/api/v1/admin/jurisdictions/{lookup_key}' });
    });
  });

  describe('PUT /admin/jurisdictions/{lookup_key}', () => {
    it('appends a JurisdictionRuleChanged event and resolves with the rule from its effective date', async () => {
      const arkansas = enactedStateRule('AR', { effective_date: '2026-09-15' });
      const { status, headers, body } = await putRule(testApp.baseUrl, 'AR', arkansas, { 'x-request-id': 'put-ar-1' });

      expect(status).toBe(201);
      expect(body).toEqual({
        rule: { lookup_key: 'AR', ...arkansas },
        auditHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        position: expect.any(Number),
      });
      expect(headers.get('x-request-id')).toBe('put-ar-1');
      const [event, ...more] = await testApp.app.get(EventStore).readStream('jurisdictionRule-AR');
      expect(more).toEqual([]);
      expect(event).toMatchObject({
        position: body.position,
        hash: body.auditHash,
        type: 'JurisdictionRuleChanged',
        data: { rule: body.rule },
        metadata: { schemaVersion: 1, correlationId: 'put-ar-1', actor: { keyId: expect.any(String), role: 'admin' } },
      });

      const sale = await get('/jurisdiction/zip/72201');
      expect(sale.body).toMatchObject({
        lookup_key: 'AR',
        rounding_mode: 'mandatory_round_down',
        legislation: 'AR Act 2026-1 (test)',
      });
      expect((await get('/jurisdiction/zip/72201?date=2026-09-14')).body).toMatchObject({ lookup_key: 'US' });
      expect(
        (await get('/jurisdictions?state=AR')).body.rules.map((rule: JurisdictionRule) => rule.effective_date),
      ).toEqual([null, '2026-09-15']);
      // The rule recorded here was verified before the newest seed record.
      expect((await get('/health')).body.jurisdiction_data).toEqual({
        last_verified: NEWEST_VERIFIED,
        stale: staleSeeds(TODAY).length,
        zip_codes: 33_791,
        rules: 67,
      });
    });

    it('answers 200 when it replaces the version with the same effective date, and takes a matching lookup_key', async () => {
      const amended = {
        lookup_key: 'AR',
        ...enactedStateRule('AR', { effective_date: '2026-09-15', rounding_mode: 'nearest_nickel' }),
      };
      const { status, body } = await putRule(testApp.baseUrl, 'AR', amended);
      expect(status).toBe(200);
      expect(body.rule).toEqual(amended);
      expect((await get('/jurisdiction/AR')).body).toMatchObject({ rounding_mode: 'nearest_nickel' });
      expect((await get('/jurisdictions?state=AR')).body.count).toBe(2);
      expect(await testApp.app.get(EventStore).readStream('jurisdictionRule-AR')).toHaveLength(2);
    });

    it('records a county rule that then wins over its state', async () => {
      const maricopa = {
        ...enactedStateRule('AZ', { effective_date: null }),
        jurisdiction_id: 'US-AZ-Maricopa',
        jurisdiction_level: 'county',
        county: 'Maricopa',
      };
      expect((await putRule(testApp.baseUrl, 'AZ-Maricopa', maricopa)).status).toBe(201);
      expect((await get('/jurisdiction/zip/85004')).body).toMatchObject({
        lookup_key: 'AZ-Maricopa',
        jurisdiction_level: 'county',
      });
      expect((await get('/jurisdiction/zip/85701')).body).toMatchObject({ lookup_key: 'AZ' });
    });

    it('does not apply a change before its effective date', async () => {
      const tennessee = enactedStateRule('TN', { rounding_mode: 'mandatory_round_up', effective_date: '2026-12-01' });
      expect((await putRule(testApp.baseUrl, 'TN', tennessee)).status).toBe(201);
      expect((await get('/jurisdiction/TN')).body).toMatchObject({
        lookup_key: 'TN',
        rounding_mode: 'symmetrical_rounding',
        date: TODAY,
      });
      expect((await get('/jurisdiction/TN?date=2026-12-01')).body).toMatchObject({
        rounding_mode: 'mandatory_round_up',
      });
    });

    it.each([
      [
        'a bad field and an unknown one',
        'AZ',
        { ...enactedStateRule('AZ', {}), rounding_mode: 'to_quarter', colour: 'red' },
        ['colour', 'rounding_mode'],
      ],
      ['a lookup_key other than the path', 'AZ', { lookup_key: 'NM', ...enactedStateRule('AZ', {}) }, ['lookup_key']],
      [
        'a place that does not match its level',
        'AZ',
        { ...enactedStateRule('AZ', {}), county: 'Maricopa' },
        ['county'],
      ],
      [
        'a state without data',
        'ZZ',
        { ...enactedStateRule('AZ', {}), state: 'ZZ', jurisdiction_id: 'US-ZZ' },
        ['state'],
      ],
      ['a path key that does not fit the place', 'AZ-Nowhere', enactedStateRule('AZ', {}), ['lookup_key']],
      ['an array', 'AZ', [enactedStateRule('AZ', {})], ['(rule)']],
    ])('rejects %s with 400 and appends nothing', async (_case, lookupKey, rule, fields) => {
      const before = await headPosition();
      const { status, body } = await putRule(testApp.baseUrl, lookupKey, rule);
      expect(status).toBe(400);
      expect(body.error).toBe('VALIDATION_ERROR');
      expect(body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(fields);
      expect(await headPosition()).toBe(before);
    });

    it('rejects a missing body with 400 and a body that is not JSON with 415', async () => {
      const before = await headPosition();
      const empty = await call(testApp.baseUrl, '/admin/jurisdictions/AZ', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
      });
      expect(empty.status).toBe(400);
      const text = await call(testApp.baseUrl, '/admin/jurisdictions/AZ', {
        method: 'PUT',
        body: 'AZ',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status).toBe(415);
      expect(await headPosition()).toBe(before);
    });

    it('picks up a change this process did not make, by polling the read model', async () => {
      const idaho = { lookup_key: 'ID', ...enactedStateRule('ID', { effective_date: '2026-09-01' }) };
      // Appended past the PUT handler, as another service process would: only the poll can bring it in.
      await testApp.app
        .get(EventStore)
        .append(
          'jurisdictionRule-ID',
          [{ type: 'JurisdictionRuleChanged', data: { rule: idaho }, metadata: { schemaVersion: 1 } }],
          { expectedRevision: 'any' },
        );
      const answer = await eventually(
        WAIT_LIMIT_MS,
        () => get('/jurisdiction/ID'),
        ({ body }) => body.lookup_key === 'ID',
      );
      expect(answer.body).toMatchObject({ lookup_key: 'ID', rounding_mode: 'mandatory_round_down' });
    });

    it('rebuilds the read model to the same rows, and a fresh resolver loads them as at start', async () => {
      const db = testApp.app.get<Database>(DATABASE);
      // The read model follows the log after the append.
      await testApp.app.get(AsyncProjectionRunner).drain();
      const live = await readRecordedRules(db, 0);
      await rebuildProjections(db, PROJECTORS);
      expect(await readRecordedRules(db, 0)).toEqual(live);
      // Every version the log holds: the imported seeds and the changes recorded here.
      expect(live.map(({ rule }) => rule.lookup_key)).toEqual(
        expect.arrayContaining(['AR', 'AZ-Maricopa', 'ID', 'TN', 'US']),
      );

      const fresh = new JurisdictionRuleStore(loadSeeds());
      for (const { rule } of live) recordRule(fresh, rule);
      expect(listRules(fresh)).toEqual(listRules(testApp.app.get(JurisdictionRuleStore)));
    });
  });
});

describe('recorded rules across restarts and processes', () => {
  it('a restarted service resolves with the rule changes recorded before', async () => {
    const shared = await sharedStorage();
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    try {
      first = await startApp({ env: shared.env });
      const rule = enactedStateRule('KS', { effective_date: '2026-08-01' });
      expect((await putRule(first.baseUrl, 'KS', rule)).status).toBe(201);
      await first.close();
      first = undefined;

      second = await startApp({ env: shared.env });
      expect((await call(second.baseUrl, '/jurisdiction/KS')).body).toMatchObject({
        lookup_key: 'KS',
        status: 'enacted',
      });
    } finally {
      await first?.close();
      await second?.close();
      await shared.drop();
    }
  });

  it('a second process on the same PostgreSQL database picks up a change within the poll interval', async () => {
    const shared = await sharedStorage();
    const apps: TestApp[] = [];
    try {
      apps.push(await startApp({ env: shared.env }), await startApp({ env: shared.env }));
      const [writer, reader] = apps;
      expect((await call(reader.baseUrl, '/jurisdiction/NE')).body.lookup_key).toBe('US');
      expect(
        (await putRule(writer.baseUrl, 'NE', enactedStateRule('NE', { effective_date: '2026-09-01' }))).status,
      ).toBe(201);
      const answer = await eventually(
        WAIT_LIMIT_MS,
        () => call(reader.baseUrl, '/jurisdiction/NE'),
        ({ body }) => body.lookup_key === 'NE',
      );
      expect(answer.body).toMatchObject({ lookup_key: 'NE', status: 'enacted' });
    } finally {
      for (const app of apps) await app.close();
      await shared.drop();
    }
  });
});

/** One database for several app instances at once, on the run's server. */
async function sharedStorage(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const db = await createTestDatabase();
  return { env: { DATABASE_URL: db.url }, drop: () => db.drop() };
}

describe('a seed file that fails its checks', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'crcs-bad-seeds-'));
    for (const file of Object.values(SEED_FILES)) copyFileSync(join(defaultSeedDir(), file), join(dir, file));
    const lines = readFileSync(join(dir, SEED_FILES.zips), 'utf8').split('\n');
    lines[2] = '00602,pr,Aguada,Aguada,72003';
    writeFileSync(join(dir, SEED_FILES.zips), lines.join('\n'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the start with the file and the row in the message', async () => {
    // A database the test opens and closes itself: the failed start never reaches the shutdown that would close one.
    const testDb = await createTestDatabase();
    const db = await testDb.open();
    try {
      const start = startTestApp({
        override: (builder) =>
          builder
            .overrideProvider(DATABASE)
            .useValue(db)
            .overrideProvider(SEED_DATA)
            .useFactory({ factory: () => loadSeeds(dir) }),
      });
      await expect(start).rejects.toThrow('zip-codes.csv line 3: state "pr" is not a two-letter upper-case code');
    } finally {
      await testDb.drop();
    }
  });
});
