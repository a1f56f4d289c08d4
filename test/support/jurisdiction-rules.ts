import { JurisdictionRuleStore } from '../../src/jurisdiction/rule-store';
import { loadSeeds } from '../../src/jurisdiction/seed-loader';
import { sha256Hex } from '@crcs/tlog';
import type { JurisdictionRule } from '../../src/rules/jurisdiction-rule';
import type { SeedData } from '../../src/rules/seed-data';

let lastPosition = 0;

/** Puts `raw` in `store` as the log would: from an entry of its own (a made-up position and the hash of the rule). */
export function recordRule(store: JurisdictionRuleStore, raw: unknown): JurisdictionRule {
  return store.upsertRule(raw, { position: ++lastPosition, hash: sha256Hex(JSON.stringify(raw)) });
}

/** A rule store holding the seed rules, as the service's holds them once the first start imported them. */
export function seededRuleStore(seeds: Pick<SeedData, 'zips' | 'rules'> = loadSeeds()): JurisdictionRuleStore {
  const store = new JurisdictionRuleStore(seeds);
  for (const rule of seeds.rules) recordRule(store, rule);
  return store;
}

/**
 * A valid enacted retail rounding rule of the place `fields` names (its lookup key, id and level
 * follow from state, county and city), as an administrator would record it: rounds the total down,
 * no disclosure, a test source; any field overridden. Its notes say it was recorded by a test.
 */
export function ruleAt(fields: Partial<JurisdictionRule>): JurisdictionRule {
  const place = [fields.state, fields.county, fields.city].filter((part) => part != null).join('-');
  const level = fields.city ? 'city' : fields.county ? 'county' : 'state';
  return {
    lookup_key: place,
    jurisdiction_id: `US-${place}`,
    jurisdiction_level: level,
    state: null,
    county: null,
    city: null,
    rounding_mode: 'mandatory_round_down',
    choice: null,
    enforcement: 'mandatory',
    status: 'enacted',
    legislation: 'Test Ordinance 1',
    effective_date: null,
    disclosure_required: false,
    disclosure_text: null,
    cash_acceptance_law: false,
    source: ['https://example.test/ordinance'],
    notes: 'recorded by a test',
    expires_date: null,
    enacted_date: null,
    session_ends: null,
    last_verified: '2026-09-01',
    last_searched: null,
    source_kind: 'bill_text',
    confidence: 'medium',
    cash_surcharge_barred: null,
    rounds: 'total',
    exact_change_exempt: false,
    small_total: null,
    refunds: 'mirror_original',
    disclosure: { kind: 'none', text: null, itemized: false },
    rule_type: 'rounding',
    scope: 'retail',
    ...fields,
  };
}
