import { Controller, Get, Param, Query } from '@nestjs/common';
import { Roles } from '../../auth/roles.decorator';
import { Clock } from '../../common/clock';
import {
  JurisdictionResolver,
  type HierarchyEntry,
  type JurisdictionResolution,
  type NotAppliedReason,
  type ResolutionWarning,
  type ResolvedLocation,
} from '../jurisdiction-resolver';
import type { JurisdictionLevel, JurisdictionRule } from '../jurisdiction-rule';
import { ListRulesQuery, OnDateQuery } from './look-up-jurisdiction.request.dto';

/** A rule of the hierarchy, in full, and whether it is the one applied. */
export interface HierarchyRule extends JurisdictionRule {
  applied: boolean;
  not_applied_reason?: NotAppliedReason;
}

export interface HierarchyLevel {
  level: JurisdictionLevel;
  /** The place at this level: the city, county or state of the location, or `US`. */
  name: string;
  /** True for the level whose rule won. */
  applied: boolean;
  /** Empty where the place has no rule. */
  rules: HierarchyRule[];
}

/** The applied rule in full (the spec's `JurisdictionRule`), with where and why it was chosen. */
export interface JurisdictionLookup extends JurisdictionRule {
  date: string;
  location: ResolvedLocation;
  /** Most local first, down to federal: every level the location has. */
  hierarchy: HierarchyLevel[];
  warnings: ResolutionWarning[];
}

export interface RuleList {
  count: number;
  rules: JurisdictionRule[];
}

const LEVELS_MOST_LOCAL_FIRST: readonly JurisdictionLevel[] = ['city', 'county', 'state', 'federal'];

/**
 * Read-only lookups, open to any valid key. `zip/:zip_code` never reaches `:state/:county`: the
 * router matches a static segment before a parameter, whatever the registration order.
 */
@Controller()
@Roles('merchant', 'auditor', 'admin', 'partner')
export class LookUpJurisdictionController {
  constructor(
    private readonly resolver: JurisdictionResolver,
    private readonly clock: Clock,
  ) {}

  @Get('jurisdiction/zip/:zip_code')
  byZip(@Param('zip_code') zip: string, @Query() { date }: OnDateQuery): JurisdictionLookup {
    const on = date ?? this.today();
    return lookupOf(this.resolver.ruleForZip(zip, on), on);
  }

  @Get('jurisdiction/:state')
  byState(@Param('state') state: string, @Query() { date }: OnDateQuery): JurisdictionLookup {
    return this.ruleFor(date, state);
  }

  @Get('jurisdiction/:state/:county')
  byCounty(@Param('state') state: string, @Param('county') county: string, @Query() { date }: OnDateQuery): JurisdictionLookup {
    return this.ruleFor(date, state, county);
  }

  @Get('jurisdiction/:state/:county/:city')
  byCity(
    @Param('state') state: string,
    @Param('county') county: string,
    @Param('city') city: string,
    @Query() { date }: OnDateQuery,
  ): JurisdictionLookup {
    return this.ruleFor(date, state, county, city);
  }

  @Get('jurisdictions')
  list(@Query() filter: ListRulesQuery): RuleList {
    const rules = this.resolver.listRules(filter);
    return { count: rules.length, rules };
  }

  private ruleFor(date: string | undefined, state: string, county?: string, city?: string): JurisdictionLookup {
    const on = date ?? this.today();
    return lookupOf(this.resolver.ruleFor({ state, county, city }, on), on);
  }

  /** The UTC date: a sale carries its own date, this default only serves lookups. */
  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }
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
  return { ...resolution.rule, date, location, hierarchy, warnings: resolution.warnings };
}

function hierarchyRule({ rule, applied, not_applied_reason }: HierarchyEntry): HierarchyRule {
  return { ...rule, applied, ...(not_applied_reason && { not_applied_reason }) };
}
