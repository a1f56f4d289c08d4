import { JurisdictionNotFoundError, JurisdictionValidationError } from './jurisdiction.errors';
import { JurisdictionLevel, JurisdictionRule, STATE_CODE, isIsoDate } from './jurisdiction-rule';
import { foldCityName, foldCountyName } from './name-folding';
import { SeedData, ZipRecord } from './seed-data';

/** A 5-digit ZIP code; ZIP+4 is not accepted. */
export const ZIP_CODE = /^\d{5}$/;

export interface LocationQuery {
  zip_code?: string;
  state?: string;
  county?: string;
  city?: string;
  /** ISO date of the transaction; rules are chosen as in force on it. */
  date: string;
}

export interface PlaceQuery {
  state: string;
  county?: string;
  city?: string;
}

export const RESOLUTION_WARNING_CODES = [
  'STATE_ZIP_MISMATCH',
  'UNKNOWN_ZIP_FALLBACK',
  'NO_LOCATION_FALLBACK',
  'UNKNOWN_COUNTY',
  'CITY_WITHOUT_COUNTY',
] as const;
export type ResolutionWarningCode = (typeof RESOLUTION_WARNING_CODES)[number];

/** Every warning means the jurisdiction is not fully verified: the transaction is WARN. */
export interface ResolutionWarning {
  code: ResolutionWarningCode;
  message: string;
}

export const NOT_APPLIED_REASONS = [
  'not_yet_in_force',
  'expired',
  'not_a_rounding_rule',
  'other_scope',
  'not_enacted',
  'superseded',
] as const;
export type NotAppliedReason = (typeof NOT_APPLIED_REASONS)[number];

export interface HierarchyEntry {
  level: JurisdictionLevel;
  applied: boolean;
  not_applied_reason?: NotAppliedReason;
  rule: JurisdictionRule;
}

/** The location as the data knows it; null where the caller gave no such part and the data could not supply it. */
export interface ResolvedLocation {
  zip: string | null;
  state: string | null;
  county: string | null;
  city: string | null;
  county_fips: string | null;
}

export interface JurisdictionResolution {
  /** The applied rule in full: its legislation, source and notes go with every decision that used it. */
  rule: JurisdictionRule;
  level: JurisdictionLevel;
  jurisdiction_id: string;
  /** Most local first: city, county, state, federal; only places that have entries. */
  hierarchy: HierarchyEntry[];
  warnings: ResolutionWarning[];
  location: ResolvedLocation;
  /** Versions of any rule of the location dated after the date asked, soonest first: each takes over on its date if it applies then. */
  upcoming: JurisdictionRule[];
}

/**
 * The rule versions a resolution reads: place key (`placeKeyOf`) -> `rule_type|scope` -> versions
 * by effective date, null first. The caller keeps them (the seeds plus every recorded change).
 */
export type RuleVersions = ReadonlyMap<string, ReadonlyMap<string, readonly JurisdictionRule[]>>;

/**
 * Counties that lie wholly inside one city, so every address in them is in that city
 * whatever its postal name: a Brooklyn ZIP is in New York City, whose ordinances the
 * seeds key by borough.
 */
const COUNTIES_WITHIN_ONE_CITY: ReadonlyMap<string, string> = new Map([
  ['NY|newyork', 'New York City'],
  ['NY|kings', 'New York City'],
  ['NY|queens', 'New York City'],
  ['NY|bronx', 'New York City'],
  ['NY|richmond', 'New York City'],
  ['PA|philadelphia', 'Philadelphia'],
  ['CA|sanfrancisco', 'San Francisco'],
]);
const WHOLE_CITY_KEYS = new Map([...COUNTIES_WITHIN_ONE_CITY].map(([county, city]) => [county, foldCityName(city)]));

const FEDERAL_PLACE = '||';
const APPLICABLE_SERIES = 'rounding|retail';

interface Place {
  level: JurisdictionLevel;
  key: string;
}

interface KnownCounty {
  name: string;
  fips: string;
}

/** Where a resolution looks for rules, and what it tells the caller about the location. */
interface Located {
  places: Place[];
  location: ResolvedLocation;
  warnings: ResolutionWarning[];
}

function placeKey(state: string | null, countyKey: string, cityKey: string): string {
  return `${state ?? ''}|${countyKey}|${cityKey}`;
}

/** The place a rule is recorded for, as resolutions look it up: its names folded. */
export function placeKeyOf(rule: JurisdictionRule): string {
  return placeKey(
    rule.state,
    rule.county === null ? '' : foldCountyName(rule.county),
    rule.city === null ? '' : foldCityName(rule.city),
  );
}

/** The series a rule is a version of at its place. */
export function seriesKey(rule: JurisdictionRule): string {
  return `${rule.rule_type}|${rule.scope}`;
}

function hasStarted(rule: JurisdictionRule, date: string): boolean {
  return rule.effective_date === null || rule.effective_date <= date;
}

/** A version covers sales on [effective_date, expires_date). */
function isInForce(rule: JurisdictionRule, date: string): boolean {
  return hasStarted(rule, date) && (rule.expires_date === null || date < rule.expires_date);
}

const STALE_AFTER_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * Why a record says less than it seems on `today`, or null when it is current. A pending or proposed
 * bill whose session has ended is now law or dead whatever our searching found, so only a new status
 * clears it; one whose session's end is not recorded cannot be trusted to be current either. Any
 * record unchecked against its sources for 90 days is stale too (`last_searched` never resets this).
 */
export function staleness(rule: JurisdictionRule, today: string): string | null {
  if (rule.status === 'pending' || rule.status === 'proposed') {
    if (rule.session_ends === null) return `it is ${rule.status} with no known end of session`;
    if (rule.session_ends < today) return `it is still ${rule.status} though its session ended on ${rule.session_ends}`;
  }
  if ((Date.parse(today) - Date.parse(rule.last_verified)) / DAY_MS > STALE_AFTER_DAYS)
    return `it was last checked against its sources on ${rule.last_verified}`;
  return null;
}

export function isStale(rule: JurisdictionRule, today: string): boolean {
  return staleness(rule, today) !== null;
}

/** Versions are sorted by effective date (null first): the last one in force wins, else the next one due. */
function versionOn(versions: readonly JurisdictionRule[], date: string): JurisdictionRule {
  for (let i = versions.length - 1; i >= 0; i--) if (isInForce(versions[i], date)) return versions[i];
  return versions[0];
}

function reasonNotApplicable(rule: JurisdictionRule, date: string): NotAppliedReason | undefined {
  if (!hasStarted(rule, date)) return 'not_yet_in_force';
  if (!isInForce(rule, date)) return 'expired';
  if (rule.rule_type !== 'rounding') return 'not_a_rounding_rule';
  if (rule.scope !== 'retail') return 'other_scope';
  if (rule.status !== 'enacted') return 'not_enacted';
  return undefined;
}

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function checkDate(date: string): void {
  if (!isIsoDate(date))
    throw new JurisdictionValidationError(
      'INVALID_DATE',
      'date',
      `date must be an ISO date (YYYY-MM-DD), got ${String(date)}`,
    );
}

/** Accepts any case ("az"), as path parameters arrive. */
export function normalizeState(state: string): string {
  const code = typeof state === 'string' ? state.trim().toUpperCase() : '';
  if (!STATE_CODE.test(code)) {
    throw new JurisdictionValidationError(
      'INVALID_STATE',
      'state',
      `state must be a two-letter state code, got ${String(state)}`,
    );
  }
  return code;
}

/**
 * Indexes of the ZIP data, which never change after start, and resolution over them: the caller
 * passes the rule versions and the date in, so a resolution depends on its arguments alone.
 */
export class JurisdictionResolver {
  private readonly zips: ReadonlyMap<string, ZipRecord>;
  /** Seed spelling -> folded key, computed once per name (not per ZIP) so a lookup only reads maps. */
  private readonly countyKey = memoize(foldCountyName);
  private readonly cityKey = memoize(foldCityName);
  private readonly counties = new Map<string, Map<string, KnownCounty>>();
  private readonly cities = new Map<string, Map<string, string>>();
  private readonly states = new Set<string>();

  /**
   * On the start path, over some 34,000 ZIPs: a ZIP allocates only what it adds (a county, city or
   * spelling not seen yet), as all that is allocated here is collected before the service answers.
   */
  constructor(zips: SeedData['zips']) {
    this.zips = zips;
    for (const record of zips.values()) {
      const county = this.countyKey(record.county);
      this.states.add(record.state);
      const counties = mapIn(this.counties, record.state);
      const known = counties.get(county);
      if (known?.name !== record.county || known.fips !== record.county_fips)
        counties.set(county, { name: record.county, fips: record.county_fips });
      mapIn(this.cities, `${record.state}|${county}`).set(this.cityKey(record.city), record.city);
    }
  }

  zip(zip: string): ZipRecord | undefined {
    return this.zips.get(zip);
  }

  /** How many ZIP codes the data holds. */
  get zipCount(): number {
    return this.zips.size;
  }

  /** Whether the ZIP data holds the state (a normalized two-letter code). */
  knowsState(state: string): boolean {
    return this.states.has(state);
  }

  resolve(query: LocationQuery, rules: RuleVersions): JurisdictionResolution {
    checkDate(query.date);
    const located = query.zip_code !== undefined ? this.locateZip(query) : this.locateNames(query);
    return this.cascade(located, query.date, rules);
  }

  /** For GET /jurisdiction/{state}[/{county}[/{city}]]: city falls back to county, county to state. */
  ruleFor(place: PlaceQuery, date: string, rules: RuleVersions): JurisdictionResolution {
    const state = normalizeState(place.state);
    if (!this.states.has(state)) throw new JurisdictionNotFoundError(`no jurisdiction data for state ${state}`);
    return this.resolve({ state, county: place.county, city: place.city, date }, rules);
  }

  /** For GET /jurisdiction/zip/{zip_code}: a ZIP missing from the data is not found here, though a sale there falls back to federal. */
  ruleForZip(zip: string, date: string, rules: RuleVersions): JurisdictionResolution {
    const resolution = this.resolve({ zip_code: zip, date }, rules);
    if (resolution.location.state === null) throw new JurisdictionNotFoundError(`ZIP ${zip} is not in the ZIP data`);
    return resolution;
  }

  private locateZip(query: LocationQuery): Located {
    const zip = query.zip_code!;
    if (!ZIP_CODE.test(zip)) {
      throw new JurisdictionValidationError(
        'INVALID_ZIP_CODE',
        'zip_code',
        `zip_code must be exactly 5 digits (ZIP+4 is not accepted), got ${JSON.stringify(zip)}`,
      );
    }
    const claimedState = blankToUndefined(query.state) === undefined ? undefined : normalizeState(query.state!);
    const record = this.zips.get(zip);
    if (!record) {
      return {
        places: [],
        location: { zip, state: null, county: null, city: null, county_fips: null },
        warnings: [
          { code: 'UNKNOWN_ZIP_FALLBACK', message: `ZIP ${zip} is not in the ZIP data; the federal default applies` },
        ],
      };
    }
    const keys = { county: this.countyKey(record.county), city: this.cityKey(record.city) };
    const warnings: ResolutionWarning[] = [];
    if (claimedState !== undefined && claimedState !== record.state) {
      warnings.push({
        code: 'STATE_ZIP_MISMATCH',
        message: `state ${claimedState} disagrees with ZIP ${zip}, which is in ${record.state}; the ZIP's rule applies`,
      });
    }
    return {
      places: this.placesFor(record.state, keys.county, keys.city),
      location: { zip, state: record.state, county: record.county, city: record.city, county_fips: record.county_fips },
      warnings,
    };
  }

  private locateNames(query: LocationQuery): Located {
    const county = blankToUndefined(query.county);
    const city = blankToUndefined(query.city);
    if (blankToUndefined(query.state) === undefined) {
      return {
        places: [],
        location: { zip: null, state: null, county: null, city: null, county_fips: null },
        warnings: [
          { code: 'NO_LOCATION_FALLBACK', message: 'no zip_code or state given; the federal default applies' },
        ],
      };
    }
    const state = normalizeState(query.state!);
    if (!this.states.has(state)) {
      throw new JurisdictionValidationError('UNKNOWN_STATE', 'state', `no jurisdiction data for state ${state}`);
    }
    const location: ResolvedLocation = { zip: null, state, county: null, city: null, county_fips: null };
    const warnings: ResolutionWarning[] = [];
    if (county === undefined) {
      if (city !== undefined) {
        warnings.push({
          code: 'CITY_WITHOUT_COUNTY',
          message: `city ${city} was ignored: a city is matched within its county`,
        });
      }
      return { places: this.placesFor(state, '', ''), location, warnings };
    }

    const known = this.findCounty(state, county);
    const countyKey = known?.key ?? foldCountyName(county);
    location.county = known?.county.name ?? county;
    location.county_fips = known?.county.fips ?? null;
    if (!known) {
      warnings.push({
        code: 'UNKNOWN_COUNTY',
        message: `county ${county} is not in the ZIP data for ${state}; it cannot be verified`,
      });
    }
    const cityKey = city === undefined ? '' : foldCityName(city);
    if (city !== undefined) location.city = this.cities.get(`${state}|${countyKey}`)?.get(cityKey) ?? city;
    return { places: this.placesFor(state, countyKey, cityKey), location, warnings };
  }

  /** An independent city may be named without its lowercase " city" ("Virginia Beach") when no county shares the name. */
  private findCounty(state: string, county: string): { key: string; county: KnownCounty } | undefined {
    const counties = this.counties.get(state);
    for (const key of [foldCountyName(county), foldCountyName(`${county} city`)]) {
      const found = counties?.get(key);
      if (found) return { key, county: found };
    }
    return undefined;
  }

  private placesFor(state: string, countyKey: string, cityKey: string): Place[] {
    const places: Place[] = [];
    if (countyKey) {
      const cityKeys = new Set<string>();
      if (cityKey) cityKeys.add(cityKey);
      const wholeCity = WHOLE_CITY_KEYS.get(`${state}|${countyKey}`);
      if (wholeCity) cityKeys.add(wholeCity);
      for (const key of cityKeys) places.push({ level: 'city', key: placeKey(state, countyKey, key) });
      places.push({ level: 'county', key: placeKey(state, countyKey, '') });
    }
    places.push({ level: 'state', key: placeKey(state, '', '') });
    return places;
  }

  private cascade({ places, location, warnings }: Located, date: string, rules: RuleVersions): JurisdictionResolution {
    const candidates = [...places, { level: 'federal' as const, key: FEDERAL_PLACE }].flatMap(({ level, key }) =>
      [...(rules.get(key)?.values() ?? [])].map((versions) => {
        const rule = versionOn(versions, date);
        return {
          level,
          rule,
          reason: reasonNotApplicable(rule, date),
          upcoming: versions.filter((version) => !hasStarted(version, date)),
        };
      }),
    );
    const mostLocal = candidates.findIndex((candidate) => candidate.reason === undefined);
    const chosen = mostLocal >= 0 ? mostLocal : federalDefault(candidates, date);
    const hierarchy = candidates.map(({ level, rule, reason }, i): HierarchyEntry =>
      i === chosen
        ? { level, applied: true, rule }
        : { level, applied: false, not_applied_reason: reason ?? 'superseded', rule },
    );
    const { level, rule } = candidates[chosen];
    const upcoming = candidates
      .flatMap((candidate) => candidate.upcoming)
      .sort((a, b) => a.effective_date!.localeCompare(b.effective_date!));
    return { rule, level, jurisdiction_id: rule.jurisdiction_id, hierarchy, warnings, location, upcoming };
  }
}

/** Nothing enacted applies: the federal record does, whatever its status (the service's own default, voluntary). */
function federalDefault(
  candidates: readonly { level: JurisdictionLevel; rule: JurisdictionRule }[],
  date: string,
): number {
  const index = candidates.findIndex(
    ({ level, rule }) => level === 'federal' && seriesKey(rule) === APPLICABLE_SERIES && isInForce(rule, date),
  );
  if (index < 0) throw new Error(`no federal rounding rule in force on ${date}`);
  return index;
}

function mapIn<K, V extends Map<unknown, unknown>>(map: Map<K, V>, key: K): V {
  let inner = map.get(key);
  if (!inner) {
    inner = new Map() as V;
    map.set(key, inner);
  }
  return inner;
}

function memoize(fold: (name: string) => string): (name: string) => string {
  const cache = new Map<string, string>();
  return (name) => {
    let key = cache.get(name);
    if (key === undefined) {
      key = fold(name);
      cache.set(name, key);
    }
    return key;
  };
}
