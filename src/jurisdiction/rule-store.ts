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
import type { EntryRef } from '@crcs/tlog';
import type { SeedData } from '../rules/seed-data';

/**
 * The rule versions in force for this process, every one from its entry in the log (imported from
 * the seed files or recorded by an administrator), fed in by JurisdictionRuleSync as it reads them.
 * Each version keeps the entry it came from, which a sale names. Resolutions read the versions as
 * they stand at the call; the resolution itself is the pure resolver's.
 */
export class JurisdictionRuleStore {
  readonly resolver: JurisdictionResolver;
  /** place key -> rule_type|scope -> versions by effective date. */
  private readonly rules = new Map<string, Map<string, JurisdictionRule[]>>();
  /** The entry each stored version came from; resolutions hand out the stored objects themselves. */
  private readonly entries = new WeakMap<JurisdictionRule, EntryRef>();

  constructor(seeds: Pick<SeedData, 'zips'>) {
    this.resolver = new JurisdictionResolver(seeds.zips);
  }

  /** Checks a rule as upsertRule does without recording it, so a change is known good before it is appended to the log. */
  checkRule(raw: unknown): JurisdictionRule {
    const rule = parseJurisdictionRule(raw);
    if (rule.state !== null && !this.resolver.knowsState(rule.state)) {
      throw new JurisdictionValidationError('UNKNOWN_STATE', 'state', `no jurisdiction data for state ${rule.state}`);
    }
    return rule;
  }

  /** Records the rule version of a log entry (replacing one with the same place, type, scope and effective date). */
  upsertRule(raw: unknown, entry: EntryRef): JurisdictionRule {
    const rule = this.checkRule(raw);
    this.store(rule, entry);
    return rule;
  }

  /** The log entry a version handed out by a resolution came from. */
  entryOf(rule: JurisdictionRule): EntryRef {
    const entry = this.entries.get(rule);
    if (!entry) throw new Error(`rule ${rule.lookup_key} was not read from the log`);
    return entry;
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

  private store(rule: JurisdictionRule, entry: EntryRef): void {
    const key = placeKeyOf(rule);
    const series = this.rules.get(key) ?? new Map<string, JurisdictionRule[]>();
    this.rules.set(key, series);
    const kept = (series.get(seriesKey(rule)) ?? []).filter(
      (version) => ruleVersionKey(version) !== ruleVersionKey(rule),
    );
    // Frozen: resolutions hand out the stored record itself.
    const stored = Object.freeze({ ...rule, source: Object.freeze([...rule.source]) as string[] });
    this.entries.set(stored, { position: entry.position, hash: entry.hash });
    kept.push(stored);
    kept.sort((a, b) => (a.effective_date ?? '').localeCompare(b.effective_date ?? ''));
    series.set(seriesKey(rule), kept);
  }
}
