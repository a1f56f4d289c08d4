import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { projectRoot } from '../platform/project-root';
import { type TipCreditRule, type SeedData, type ZipRecord, tipCreditKeysOf } from '../rules/seed-data';
import {
  CONFIDENCES,
  JurisdictionRule,
  OFFICIAL_SOURCE_KINDS,
  RuleValidationError,
  SOURCE_KINDS,
  STATE_CODE,
  isIsoDate,
  parseJurisdictionRule,
  ruleVersionKey,
} from '../rules/jurisdiction-rule';

export const SEED_FILES = {
  zips: 'zip-codes.csv',
  rules: 'jurisdiction-rules.json',
  tipCredit: 'tip-credit-rules.json',
} as const;

/**
 * A seed file the service must not start with. `row` is the CSV line (header = 1)
 * or the 1-based position in a JSON array.
 */
export class SeedValidationError extends Error {
  readonly code = 'INVALID_SEED';
  constructor(
    readonly file: string,
    readonly row: number | null,
    readonly problem: string,
  ) {
    const where = row === null ? '' : file.endsWith('.csv') ? ` line ${row}` : ` record ${row}`;
    super(`${file}${where}: ${problem}`);
    this.name = 'SeedValidationError';
  }
}

export function defaultSeedDir(): string {
  return join(projectRoot(), 'seeds');
}

const ZIP_COLUMNS = ['zip', 'state', 'county', 'city', 'county_fips'] as const;
const FIVE_DIGITS = /^\d{5}$/;
/** Trimmed, non-empty, one line: anything else is a broken export. */
// eslint-disable-next-line no-control-regex -- a place's name holds no control character
const PLACE_NAME = /^\S(?:[^\x00-\x1f]*\S)?$/;

function zipProblem(row: string[]): string | null {
  if (row.length !== ZIP_COLUMNS.length) return `has ${row.length} fields, expected ${ZIP_COLUMNS.length}`;
  const [zip, state, county, city, fips] = row;
  if (!FIVE_DIGITS.test(zip)) return `zip "${zip}" is not 5 digits`;
  if (!STATE_CODE.test(state)) return `state "${state}" is not a two-letter upper-case code`;
  if (!PLACE_NAME.test(county)) return `county "${county}" is empty or not trimmed`;
  if (!PLACE_NAME.test(city)) return `city "${city}" is empty or not trimmed`;
  if (!FIVE_DIGITS.test(fips)) return `county_fips "${fips}" is not 5 digits`;
  return null;
}

function loadZips(dir: string): Map<string, ZipRecord> {
  const file = SEED_FILES.zips;
  const parsed = Papa.parse<string[]>(readFileSync(join(dir, file), 'utf8'), { delimiter: ',', header: false });
  const [header, ...rows] = parsed.data;
  if (header?.join(',') !== ZIP_COLUMNS.join(',')) {
    throw new SeedValidationError(file, 1, `header must be ${ZIP_COLUMNS.join(',')}`);
  }
  if (rows.length > 0 && rows[rows.length - 1].join('') === '') rows.pop(); // the final newline
  const zips = new Map<string, ZipRecord>();
  const lineOf = new Map<string, number>();
  rows.forEach((row, i) => {
    const line = i + 2;
    const problem = zipProblem(row);
    if (problem) throw new SeedValidationError(file, line, problem);
    const [zip, state, county, city, countyFips] = row;
    if (zips.has(zip))
      throw new SeedValidationError(file, line, `zip ${zip} already appears on line ${lineOf.get(zip)}`);
    zips.set(zip, { zip, state, county, city, county_fips: countyFips });
    lineOf.set(zip, line);
  });
  return zips;
}

function readJsonArray(dir: string, file: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch (error) {
    throw new SeedValidationError(file, null, `is not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw new SeedValidationError(file, null, 'must hold a JSON array');
  return parsed;
}

function loadRules(dir: string): JurisdictionRule[] {
  const file = SEED_FILES.rules;
  const seen = new Map<string, number>();
  const rules = readJsonArray(dir, file).map((raw, i) => {
    const record = i + 1;
    let rule: JurisdictionRule;
    try {
      rule = parseJurisdictionRule(raw);
    } catch (error) {
      if (!(error instanceof RuleValidationError)) throw error;
      throw new SeedValidationError(file, record, `(${lookupKeyOf(raw)}) ${error.message}`);
    }
    // The seeds' bills must carry their calendar, or staleness could only be guessed (an admin's change may omit it).
    if ((rule.status === 'pending' || rule.status === 'proposed') && rule.session_ends === null) {
      throw new SeedValidationError(
        file,
        record,
        `(${rule.lookup_key}) session_ends is required for a ${rule.status} rule`,
      );
    }
    const key = ruleVersionKey(rule);
    if (seen.has(key))
      throw new SeedValidationError(file, record, `(${rule.lookup_key}) repeats record ${seen.get(key)}`);
    seen.set(key, record);
    return rule;
  });
  if (!rules.some((rule) => rule.jurisdiction_level === 'federal')) {
    throw new SeedValidationError(file, null, 'has no federal (US) rule to fall back to');
  }
  return rules;
}

function lookupKeyOf(raw: unknown): string {
  const key = (raw as { lookup_key?: unknown } | null)?.lookup_key;
  return typeof key === 'string' ? key : '(no lookup_key)';
}

const nullableAmount = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
const placeName = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() !== '' && v.trim() === v);
const TIP_CREDIT_CHECKS: Record<keyof TipCreditRule, (v: unknown) => boolean> = {
  state: (v) => v === 'US' || (typeof v === 'string' && STATE_CODE.test(v)),
  region: placeName,
  counties: (v) => v === undefined || (Array.isArray(v) && v.length > 0 && v.every(placeName)),
  county: placeName,
  city: placeName,
  minimum_wage: nullableAmount,
  tipped_minimum_cash_wage: nullableAmount,
  max_tip_credit: nullableAmount,
  tip_credit_allowed: (v) => v === null || typeof v === 'boolean',
  notes: (v) => typeof v === 'string',
  effective_date: (v) => v === null || isIsoDate(v),
  source: (v) => Array.isArray(v) && v.every((url) => typeof url === 'string'),
  source_kind: (v) => (SOURCE_KINDS as readonly unknown[]).includes(v),
  confidence: (v) => (CONFIDENCES as readonly unknown[]).includes(v),
  last_verified: isIsoDate,
};
const TIP_CREDIT_FIELDS = Object.keys(TIP_CREDIT_CHECKS) as (keyof TipCreditRule)[];
/** Absent on a state's or FLSA's entry. */
const OPTIONAL_TIP_CREDIT_FIELDS: ReadonlySet<keyof TipCreditRule> = new Set(['region', 'counties', 'county', 'city']);

/** A record is for one kind of place: the state, a region (named, with its counties), a county or a city. */
function tipCreditPlaceProblem(entry: Record<string, unknown>): string | null {
  const kinds = [
    'region' in entry !== 'counties' in entry ? 'half' : 'region' in entry ? 'region' : null,
    'county' in entry ? 'county' : null,
    'city' in entry ? 'city' : null,
  ].filter(Boolean);
  if (kinds.includes('half')) return 'region and counties go together';
  if (kinds.length > 1) return `is for one place only, not ${kinds.join(' and ')}`;
  if (kinds.length === 1 && entry.state === 'US') return 'FLSA has no region, county or city';
  return null;
}

function loadTipCreditRules(dir: string): Map<string, TipCreditRule[]> {
  const file = SEED_FILES.tipCredit;
  const rules = new Map<string, TipCreditRule[]>();
  readJsonArray(dir, file).forEach((raw, i) => {
    const record = i + 1;
    const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const unknown = Object.keys(entry).filter((field) => !(TIP_CREDIT_FIELDS as string[]).includes(field));
    const invalid = TIP_CREDIT_FIELDS.filter(
      (field) =>
        (!(field in entry) && !OPTIONAL_TIP_CREDIT_FIELDS.has(field)) || !TIP_CREDIT_CHECKS[field](entry[field]),
    );
    if (unknown.length > 0) throw new SeedValidationError(file, record, `unknown fields ${unknown.join(', ')}`);
    if (invalid.length > 0) throw new SeedValidationError(file, record, `missing or invalid ${invalid.join(', ')}`);
    const placeProblem = tipCreditPlaceProblem(entry);
    if (placeProblem) throw new SeedValidationError(file, record, placeProblem);
    if (entry.confidence === 'high' && !(OFFICIAL_SOURCE_KINDS as readonly unknown[]).includes(entry.source_kind)) {
      throw new SeedValidationError(file, record, `confidence cannot be high on a ${String(entry.source_kind)} source`);
    }
    const rule = Object.fromEntries(
      TIP_CREDIT_FIELDS.filter((field) => field in entry).map((field) => [field, entry[field]]),
    ) as unknown as TipCreditRule;
    for (const key of tipCreditKeysOf(rule)) {
      const versions = rules.get(key) ?? [];
      if (versions.some((version) => version.effective_date === rule.effective_date)) {
        throw new SeedValidationError(
          file,
          record,
          `${key} has two versions effective ${rule.effective_date ?? 'always'}`,
        );
      }
      versions.push(rule);
      versions.sort((a, b) => (a.effective_date ?? '').localeCompare(b.effective_date ?? ''));
      rules.set(key, versions);
    }
  });
  if (!rules.has('US')) throw new SeedValidationError(file, null, 'has no US (FLSA) entry');
  return rules;
}

/** Reads and checks every seed file; any bad row stops the load with the file and row in the message. */
export function loadSeeds(dir: string = defaultSeedDir()): SeedData {
  return { zips: loadZips(dir), rules: loadRules(dir), tipCreditRules: loadTipCreditRules(dir) };
}
