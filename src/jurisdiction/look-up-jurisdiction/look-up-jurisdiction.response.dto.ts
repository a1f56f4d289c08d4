import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NOT_APPLIED_REASONS, type NotAppliedReason } from '../../rules/jurisdiction-resolver';
import { JURISDICTION_LEVELS, type JurisdictionLevel } from '../../rules/jurisdiction-rule';
import { JurisdictionRuleDto, ResolutionWarningDto, ResolvedLocationDto } from '../jurisdiction.response.dto';

/** A rule of the hierarchy, in full, and whether it is the one applied. */
export class HierarchyRule extends JurisdictionRuleDto {
  @ApiProperty({ description: 'True for the one rule that applies', example: true })
  applied: boolean;

  @ApiPropertyOptional({
    enum: NOT_APPLIED_REASONS,
    description:
      'Present when `applied` is false. `not_yet_in_force`: its effective date is after the date asked; `not_a_rounding_rule`: e.g. a ' +
      'cash-acceptance ordinance; `other_scope`: not for retail sales; `not_enacted`: pending, proposed, failed or no legislation; ' +
      '`superseded`: a more local rule applies',
    example: 'not_enacted',
  })
  not_applied_reason?: NotAppliedReason;
}

export class HierarchyLevel {
  @ApiProperty({ enum: JURISDICTION_LEVELS, example: 'state' })
  level: JurisdictionLevel;

  /** The place at this level: the city, county or state of the location, or `US`. */
  @ApiProperty({
    description: 'The place at this level: the city, county or state of the location, or `US`',
    example: 'AL',
  })
  name: string;

  /** True for the level whose rule won. */
  @ApiProperty({ description: 'True for the level whose rule applies', example: true })
  applied: boolean;

  /** Empty where the place has no rule. */
  @ApiProperty({
    type: [HierarchyRule],
    description:
      'The rules of the place: of each rule_type and scope, the version in force on the date asked, else the next one due. Empty where the place has none',
  })
  rules: HierarchyRule[];
}

/** The applied rule in full (the spec's `JurisdictionRule`), with where and why it was chosen. */
export class JurisdictionLookup extends JurisdictionRuleDto {
  @ApiProperty({ format: 'date', description: 'The date the rule was resolved for', example: '2026-11-21' })
  date: string;

  @ApiProperty()
  location: ResolvedLocationDto;

  /** Most local first, down to federal: every level the location has. */
  @ApiProperty({
    type: [HierarchyLevel],
    description: 'Most local first, down to federal: every level the location has, with its rules',
  })
  hierarchy: HierarchyLevel[];

  @ApiProperty({ type: [ResolutionWarningDto], description: 'Empty when the location was fully verified' })
  warnings: ResolutionWarningDto[];

  @ApiProperty({
    type: [JurisdictionRuleDto],
    description:
      'Versions of any rule of the location (city, county, state, federal) dated after `date`, soonest first: each takes over on its effective date if it applies then, with no release',
  })
  upcoming: JurisdictionRuleDto[];
}

export class RuleList {
  @ApiProperty({ type: 'integer', example: 64 })
  count: number;

  @ApiProperty({
    type: [JurisdictionRuleDto],
    description: 'Federal first, then state, county and city rules, each by lookup_key and effective date',
  })
  rules: JurisdictionRuleDto[];
}
