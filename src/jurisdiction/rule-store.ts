import { JurisdictionValidationError } from '../rules/jurisdiction.errors';
import { JurisdictionRule, parseJurisdictionRule, ruleVersionKey } from '../rules/jurisdiction-rule';
import {
  JurisdictionResolver,
  placeKeyOf,
  seriesKey,
  type JurisdictionResolution,
  type LocationQuery,
  type PlaceQuery,
} from '../rules/jurisdiction-resolver';
import type { SeedData } from '../rules/seed-data';

/**
 * The rule versions in force for this process: the seeds, plus every change administrators
 * recorded, fed in by JurisdictionRuleSync as it reads them from the log. Resolutions read the
 * versions as they stand at the call; the resolution itself is the pure resolver's.
 */
export class JurisdictionRuleStore {
  readonly resolver: JurisdictionResolver;
  /** place key -> rule_type|scope -> versions by effective date. */
  private readonly rules = new Map<string, Map<string, JurisdictionRule[]>>();

  constructor(seeds: Pick<SeedData, 'zips' | 'rules'>) {
    this.resolver = new JurisdictionResolver(seeds.zips);
    for (const rule of seeds.rules) this.store(rule);
  }

  /** Checks a rule as upsertRule does without recording it, so a change is known good before it is appended to the log. */
  checkRule(raw: unknown): JurisdictionRule {
    const rule = parseJurisdictionRule(raw);
    if (rule.state !== null && !this.resolver.knowsState(rule.state)) {
      throw new JurisdictionValidationError('UNKNOWN_STATE', 'state', `no jurisdiction data for state ${rule.state}`);
    }
    return rule;
  }

  /** Records a new rule version (or replaces one with the same place, type, scope and effective date). */
  upsertRule(raw: unknown): JurisdictionRule {
    const rule = this.checkRule(raw);
    this.store(rule);
    return rule;
  }

  /** Every version held, in no particular order. */
  allRules(): JurisdictionRule[] {
    return [...this.rules.values()].flatMap((series) => [...series.values()].flat());
  }

  resolve(query: LocationQuery): JurisdictionResolution {
    return this.resolver.resolve(query, this.rules);
  }

  /** For GET /jurisdiction/{state}[/{county}[/{city}]]: city falls back to county, county to state. */
  ruleFor(place: PlaceQuery, date: string): JurisdictionResolution {
    return this.resolver.ruleFor(place, date, this.rules);
  }

  /** For GET /jurisdiction/zip/{zip_code}: a ZIP missing from the data is not found here, though a sale there falls back to federal. */
  ruleForZip(zip: string, date: string): JurisdictionResolution {
    return this.resolver.ruleForZip(zip, date, this.rules);
  }

  private store(rule: JurisdictionRule): void {
    const key = placeKeyOf(rule);
    const series = this.rules.get(key) ?? new Map<string, JurisdictionRule[]>();
    this.rules.set(key, series);
    const kept = (series.get(seriesKey(rule)) ?? []).filter(
      (version) => ruleVersionKey(version) !== ruleVersionKey(rule),
    );
    // Frozen: resolutions hand out the stored record itself.
    kept.push(Object.freeze({ ...rule, source: Object.freeze([...rule.source]) as string[] }));
    kept.sort((a, b) => (a.effective_date ?? '').localeCompare(b.effective_date ?? ''));
    series.set(seriesKey(rule), kept);
  }
}
