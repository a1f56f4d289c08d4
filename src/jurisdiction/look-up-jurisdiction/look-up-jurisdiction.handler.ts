import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import type { HierarchyEntry, JurisdictionResolution } from '../../rules/jurisdiction-resolver';
import type { JurisdictionLevel } from '../../rules/jurisdiction-rule';
import { JurisdictionRuleStore } from '../rule-store';
import { listRules } from '../rule-views';
import { JurisdictionLookupQuery, ListJurisdictionsQuery } from './look-up-jurisdiction.query';
import type { HierarchyLevel, HierarchyRule, JurisdictionLookup, RuleList } from './look-up-jurisdiction.response.dto';

const LEVELS_MOST_LOCAL_FIRST: readonly JurisdictionLevel[] = ['city', 'county', 'state', 'federal'];

@QueryHandler(JurisdictionLookupQuery)
export class JurisdictionLookupHandler implements IQueryHandler<JurisdictionLookupQuery, JurisdictionLookup> {
  constructor(
    private readonly rules: JurisdictionRuleStore,
    private readonly clock: Clock,
  ) {}

  async execute({ place, date }: JurisdictionLookupQuery): Promise<JurisdictionLookup> {
    const on = date ?? today(this.clock);
    return lookupOf('zip' in place ? this.rules.ruleForZip(place.zip, on) : this.rules.ruleFor(place, on), on);
  }
}

@QueryHandler(ListJurisdictionsQuery)
export class ListJurisdictionsHandler implements IQueryHandler<ListJurisdictionsQuery, RuleList> {
  constructor(
    private readonly rules: JurisdictionRuleStore,
    private readonly clock: Clock,
  ) {}

  async execute({ filter: { stale, ...filter } }: ListJurisdictionsQuery): Promise<RuleList> {
    const rules = listRules(this.rules, { ...filter, ...(stale === 'true' && { staleOn: today(this.clock) }) });
    return { count: rules.length, rules };
  }
}

/** The UTC date: a sale carries its own date, this default only serves lookups. */
function today(clock: Clock): string {
  return clock.now().toISOString().slice(0, 10);
}

function lookupOf(resolution: JurisdictionResolution, date: string): JurisdictionLookup {
  const { location } = resolution;
  const names: Record<JurisdictionLevel, string | null> = {
    city: location.city,
    county: location.county,
    state: location.state,
    federal: 'US',
  };
  const hierarchy = LEVELS_MOST_LOCAL_FIRST.flatMap((level): HierarchyLevel[] => {
    const name = names[level];
    if (name === null) return [];
    const rules = resolution.hierarchy.filter((entry) => entry.level === level).map(hierarchyRule);
    return [{ level, name, applied: rules.some((rule) => rule.applied), rules }];
  });
  return {
    ...resolution.rule,
    date,
    location,
    hierarchy,
    warnings: resolution.warnings,
    upcoming: resolution.upcoming,
  };
}

function hierarchyRule({ rule, applied, not_applied_reason: notAppliedReason }: HierarchyEntry): HierarchyRule {
  return { ...rule, applied, ...(notAppliedReason && { not_applied_reason: notAppliedReason }) };
}
