import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/platform/project-root';
import { SEED_FILES, SeedValidationError, defaultSeedDir, loadSeeds } from '../../src/jurisdiction/seed-loader';
import { SeedData, tipCreditKey } from '../../src/rules/seed-data';

const STATES = (
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ ' +
  'NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'
).split(' ');
const TERRITORIES = ['PR', 'VI', 'GU', 'MP', 'AS'];

describe('loadSeeds on the shipped seeds', () => {
  let seeds: SeedData;
  beforeAll(() => {
    seeds = loadSeeds();
  });

  it('finds the seeds from the project root, wherever the code runs from', () => {
    expect(projectRoot(join(__dirname, 'a', 'b'))).toBe(projectRoot());
    expect(defaultSeedDir()).toBe(join(projectRoot(), 'seeds'));
  });

  it('holds every ZIP of the data set, indexed by ZIP', () => {
    expect(seeds.zips.size).toBe(33_791);
    expect(seeds.zips.get('90210')).toEqual({
      zip: '90210',
      state: 'CA',
      county: 'Los Angeles',
      city: 'Beverly Hills',
      county_fips: '06037',
    });
    expect(seeds.zips.get('00601')?.state).toBe('PR');
  });

  it('covers the 50 states, DC and the five territories in the ZIP data', () => {
    const zipStates = new Set([...seeds.zips.values()].map((z) => z.state));
    expect([...zipStates].sort()).toEqual([...STATES, 'DC', ...TERRITORIES].sort());
  });

  it('has a state-level rounding rule for each state, DC and territory present, one per scope', () => {
    const stateRules = seeds.rules.filter((r) => r.jurisdiction_level === 'state' && r.rule_type === 'rounding');
    expect([...new Set(stateRules.map((rule) => rule.state))].sort()).toEqual([...STATES, 'DC', ...TERRITORIES].sort());
    const series = stateRules.map((rule) => `${rule.state}|${rule.scope}`);
    expect(new Set(series).size).toBe(series.length);
  });

  it('has the federal default and the city ordinances', () => {
    expect(seeds.rules).toHaveLength(66);
    expect(seeds.rules.filter((r) => r.jurisdiction_level === 'federal').map((r) => r.lookup_key)).toEqual(['US']);
    expect(seeds.rules.filter((r) => r.jurisdiction_level === 'city')).toHaveLength(7);
    expect(seeds.rules.filter((r) => r.jurisdiction_level === 'county')).toHaveLength(0);
  });

  it('has the FLSA tip credit rule, one per state, DC and territory, Chicago’s own, and the regions of New York and Oregon filed under each of their counties', () => {
    // 58 places, the counties of New York's downstate region (8) and Oregon's Portland metro (3) and nonurban (18) regions, Montgomery County (MD), and the 63 cities and counties of docs/local-minimum-wages.md.
    expect(seeds.tipCreditRules.size).toBe(58 + 8 + 3 + 18 + 1 + 63);
    expect(
      seeds.tipCreditRules
        .get(tipCreditKey({ state: 'CO', city: 'denver' }))
        ?.map((rule) => [rule.effective_date, rule.minimum_wage, rule.tipped_minimum_cash_wage]),
    ).toEqual([
      ['2025-01-01', 18.81, 15.79],
      ['2026-01-01', 19.29, 16.27],
    ]);
    expect(seeds.tipCreditRules.get(tipCreditKey({ state: 'CA', county: 'Los Angeles County' }))?.at(-1)).toEqual(
      expect.objectContaining({ effective_date: '2026-07-01', minimum_wage: null, tip_credit_allowed: false }),
    );
    expect(seeds.tipCreditRules.get(tipCreditKey({ state: 'NY', region_county: 'Kings County' }))).toEqual([
      expect.objectContaining({ region: 'New York City, Long Island and Westchester' }),
    ]);
    expect(seeds.tipCreditRules.get('US')).toEqual([
      expect.objectContaining({ minimum_wage: 7.25, tipped_minimum_cash_wage: 2.13 }),
    ]);
    expect(
      seeds.tipCreditRules
        .get(tipCreditKey({ state: 'IL', city: 'CHICAGO' }))
        ?.map((rule) => [rule.effective_date, rule.tip_credit_allowed]),
    ).toEqual([
      ['2024-07-01', true],
      ['2025-07-01', true],
      ['2026-07-01', true],
      ['2027-07-01', true],
      ['2028-07-01', null],
    ]);
  });
});

describe('loadSeeds on broken seeds', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'seeds-'));
    for (const file of Object.values(SEED_FILES)) copyFileSync(join(defaultSeedDir(), file), join(dir, file));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const zipsWith = (...rows: string[]) =>
    writeFileSync(
      join(dir, SEED_FILES.zips),
      ['zip,state,county,city,county_fips', '00601,PR,Adjuntas,Adjuntas,72001', ...rows].join('\n') + '\n',
    );
  const loadError = (): SeedValidationError => {
    try {
      loadSeeds(dir);
    } catch (error) {
      if (error instanceof SeedValidationError) return error;
      throw error;
    }
    throw new Error('the seeds loaded');
  };

  it('loads a small but valid ZIP file', () => {
    zipsWith('90210,CA,Los Angeles,Beverly Hills,06037');
    expect(loadSeeds(dir).zips.size).toBe(2);
  });

  it.each([
    ['a ZIP of 4 digits', '9021,CA,Los Angeles,Beverly Hills,06037', 'zip "9021" is not 5 digits'],
    ['a ZIP+4', '90210-1234,CA,Los Angeles,Beverly Hills,06037', 'zip "90210-1234" is not 5 digits'],
    [
      'a lower-case state',
      '90210,ca,Los Angeles,Beverly Hills,06037',
      'state "ca" is not a two-letter upper-case code',
    ],
    ['an empty city', '90210,CA,Los Angeles,,06037', 'city "" is empty or not trimmed'],
    ['a missing field', '90210,CA,Los Angeles,Beverly Hills', 'has 4 fields, expected 5'],
    ['a bad FIPS', '90210,CA,Los Angeles,Beverly Hills,6037', 'county_fips "6037" is not 5 digits'],
    ['a repeated ZIP', '00601,PR,Adjuntas,Adjuntas,72001', 'zip 00601 already appears on line 2'],
  ])('names the file and line of %s', (_, row, problem) => {
    zipsWith(row);
    const error = loadError();
    expect(error).toMatchObject({ file: 'zip-codes.csv', row: 3, problem });
    expect(error.message).toBe(`zip-codes.csv line 3: ${problem}`);
  });

  it('rejects a wrong header', () => {
    writeFileSync(join(dir, SEED_FILES.zips), 'zip,state,city,county,county_fips\n');
    expect(loadError().message).toBe('zip-codes.csv line 1: header must be zip,state,county,city,county_fips');
  });

  it('refuses a pending or proposed rule without the end of its session, and checks the optional fields', () => {
    const rules = JSON.parse(readSeed(SEED_FILES.rules)) as Record<string, unknown>[];
    const florida = rules.findIndex((rule) => rule.lookup_key === 'FL');
    rules[florida].session_ends = null;
    writeFileSync(join(dir, SEED_FILES.rules), JSON.stringify(rules));
    expect(loadError().message).toBe(
      `jurisdiction-rules.json record ${florida + 1}: (FL) session_ends is required for a pending rule`,
    );
    rules[florida].session_ends = '2026-03-13';
    rules[florida].cash_surcharge_barred = 'no';
    writeFileSync(join(dir, SEED_FILES.rules), JSON.stringify(rules));
    expect(loadError().message).toBe(
      `jurisdiction-rules.json record ${florida + 1}: (FL) cash_surcharge_barred: must be true or false`,
    );
  });

  it('names the record and field of a bad rule', () => {
    const rules = JSON.parse(readSeed(SEED_FILES.rules));
    rules[1].rounding_mode = 'round_to_quarter';
    rules[1].effective_date = '2026-02-30';
    writeFileSync(join(dir, SEED_FILES.rules), JSON.stringify(rules));
    expect(loadError().message).toBe(
      'jurisdiction-rules.json record 2: (AL) rounding_mode: must be one of swedish_rounding, mandatory_round_down, ' +
        'mandatory_round_up, symmetrical_rounding, nearest_nickel, nearest_cent, nearest_dime, none; ' +
        'effective_date: must be an ISO date (YYYY-MM-DD) or null',
    );
  });

  it('rejects a rule whose lookup_key does not match its place', () => {
    const rules = JSON.parse(readSeed(SEED_FILES.rules));
    rules[2].lookup_key = 'AL';
    writeFileSync(join(dir, SEED_FILES.rules), JSON.stringify(rules));
    expect(loadError().message).toBe('jurisdiction-rules.json record 3: (AL) lookup_key: must be AK for this place');
  });

  it('rejects a repeated rule and a missing federal rule', () => {
    const rules = JSON.parse(readSeed(SEED_FILES.rules));
    writeFileSync(join(dir, SEED_FILES.rules), JSON.stringify([...rules, rules[1]]));
    expect(loadError().message).toBe(`jurisdiction-rules.json record ${rules.length + 1}: (AL) repeats record 2`);
    writeFileSync(join(dir, SEED_FILES.rules), JSON.stringify(rules.slice(1)));
    expect(loadError().message).toBe('jurisdiction-rules.json: has no federal (US) rule to fall back to');
  });

  it('rejects a file that is not JSON', () => {
    writeFileSync(join(dir, SEED_FILES.tipCredit), '[{');
    expect(loadError().message).toMatch(/^tip-credit-rules\.json: is not valid JSON/);
  });

  it('names the record of a bad tip credit rule', () => {
    const rules = JSON.parse(readSeed(SEED_FILES.tipCredit));
    rules[3].minimum_wage = -1;
    writeFileSync(join(dir, SEED_FILES.tipCredit), JSON.stringify(rules));
    expect(loadError().message).toBe('tip-credit-rules.json record 4: missing or invalid minimum_wage');
  });

  it('requires how sure each tip credit rule is, and high confidence only on official text', () => {
    const rules = JSON.parse(readSeed(SEED_FILES.tipCredit));
    const write = (change: object) =>
      writeFileSync(
        join(dir, SEED_FILES.tipCredit),
        JSON.stringify(rules.map((rule: object, i: number) => (i === 3 ? { ...rule, ...change } : rule))),
      );
    write({ source_kind: undefined, confidence: 'sure', last_verified: '2026-13-01' });
    expect(loadError().message).toBe(
      'tip-credit-rules.json record 4: missing or invalid source_kind, confidence, last_verified',
    );
    write({ source_kind: 'news', confidence: 'high' });
    expect(loadError().message).toBe('tip-credit-rules.json record 4: confidence cannot be high on a news source');
  });

  it('rejects a blank city and a second version of a city’s rule on one date', () => {
    const rules = JSON.parse(readSeed(SEED_FILES.tipCredit));
    writeFileSync(
      join(dir, SEED_FILES.tipCredit),
      JSON.stringify(rules.map((rule: object, i: number) => (i === 3 ? { ...rule, city: ' ' } : rule))),
    );
    expect(loadError().message).toBe('tip-credit-rules.json record 4: missing or invalid city');
    const chicago = rules.findIndex((rule: { city?: string }) => rule.city === 'Chicago');
    writeFileSync(join(dir, SEED_FILES.tipCredit), JSON.stringify([...rules, { ...rules[chicago], city: 'CHICAGO' }]));
    expect(loadError().message).toBe(
      `tip-credit-rules.json record ${rules.length + 1}: IL/city/chicago has two versions effective 2024-07-01`,
    );
    writeFileSync(
      join(dir, SEED_FILES.tipCredit),
      JSON.stringify([...rules, { ...rules[chicago], effective_date: '2030-01-01', county: 'Cook' }]),
    );
    expect(loadError().message).toBe(
      `tip-credit-rules.json record ${rules.length + 1}: is for one place only, not county and city`,
    );
    writeFileSync(
      join(dir, SEED_FILES.tipCredit),
      JSON.stringify([
        ...rules,
        {
          state: 'NY',
          region: 'Downstate',
          minimum_wage: 1,
          tipped_minimum_cash_wage: 1,
          max_tip_credit: 0,
          tip_credit_allowed: true,
          notes: '',
          effective_date: '2030-01-01',
          source: [],
          source_kind: 'statute',
          confidence: 'high',
          last_verified: '2026-11-29',
        },
      ]),
    );
    expect(loadError().message).toBe(
      `tip-credit-rules.json record ${rules.length + 1}: region and counties go together`,
    );
  });
});

function readSeed(file: string): string {
  return readFileSync(join(defaultSeedDir(), file), 'utf8');
}
