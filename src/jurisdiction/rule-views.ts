import { JurisdictionValidationError } from '../rules/jurisdiction.errors';
import { JURISDICTION_LEVELS, RULE_STATUSES, type JurisdictionRule } from '../rules/jurisdiction-rule';
import { isStale, normalizeState, seriesKey } from '../rules/jurisdiction-resolver';
import type { JurisdictionRuleStore } from './rule-store';

/** What /health reports of the jurisdiction data. */
export interface DataSummary {
  last_verified: string | null;
  stale: number;
  zip_codes: number;
  rules: number;
}

export interface RuleFilter {
  status?: string;
  state?: string;
  /** Only the records stale on this date. */
  staleOn?: string;
}

/** What /health reports on `today`: the newest `last_verified` of any rule version, how much data there is, and how much of it is stale. */
export function dataSummary(store: JurisdictionRuleStore, today: string): DataSummary {
  const rules = store.allRules();
  const lastVerified =
    rules
      .map((rule) => rule.last_verified)
      .sort()
      .at(-1) ?? null;
  return {
    last_verified: lastVerified,
    stale: rules.filter((rule) => isStale(rule, today)).length,
    zip_codes: store.resolver.zipCount,
    rules: rules.length,
  };
}

/** GET /jurisdictions: every recorded version, federal first, then by place and effective date. */
export function listRules(store: JurisdictionRuleStore, filter: RuleFilter = {}): JurisdictionRule[] {
  const { status, staleOn } = filter;
  if (status !== undefined && !(RULE_STATUSES as readonly string[]).includes(status)) {
    throw new JurisdictionValidationError(
      'INVALID_STATUS',
      'status',
      `status must be one of ${RULE_STATUSES.join(', ')}`,
    );
  }
  const state = filter.state === undefined ? undefined : normalizeState(filter.state);
  return store
    .allRules()
    .filter(
      (rule) =>
        (status === undefined || rule.status === status) &&
        (state === undefined || rule.state === state) &&
        (staleOn === undefined || isStale(rule, staleOn)),
    )
    .sort(
      (a, b) =>
        JURISDICTION_LEVELS.indexOf(a.jurisdiction_level) - JURISDICTION_LEVELS.indexOf(b.jurisdiction_level) ||
        a.lookup_key.localeCompare(b.lookup_key) ||
        seriesKey(a).localeCompare(seriesKey(b)) ||
        (a.effective_date ?? '').localeCompare(b.effective_date ?? ''),
    );
}
