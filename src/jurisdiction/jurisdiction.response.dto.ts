import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  CONFIDENCES,
  DISCLOSURE_KINDS,
  ENFORCEMENTS,
  JURISDICTION_LEVELS,
  RULE_CHOICES,
  RULE_SCOPES,
  RULE_STATUSES,
  RULE_TYPES,
  SOURCE_KINDS,
  STATE_CODE,
  type Confidence,
  type DisclosureKind,
  type Enforcement,
  type JurisdictionLevel,
  type JurisdictionRule,
  type RuleChoice,
  type RuleDisclosure,
  type RuleScope,
  type RuleStatus,
  type RuleType,
  type SmallTotal,
  type SourceKind,
} from '../rules/jurisdiction-rule';
import {
  REFUND_POLICIES,
  ROUNDS,
  SMALL_TOTAL_KINDS,
  type RefundPolicy,
  type Rounds,
  type SmallTotalRule,
} from '../rules/cash-settlement';
import {
  RESOLUTION_WARNING_CODES,
  ZIP_CODE,
  type ResolutionWarning,
  type ResolutionWarningCode,
  type ResolvedLocation,
} from '../rules/jurisdiction-resolver';
import { ROUNDING_MODES, type RoundingMode } from '../rules/rounding-engine';
import type { DataSummary } from './rule-views';

/** The API schemas of the rule model and of a resolution: the rules themselves know nothing of Swagger. */

@ApiSchema({ name: 'RuleDisclosure' })
export class RuleDisclosureDto implements RuleDisclosure {
  @ApiProperty({
    enum: DISCLOSURE_KINDS,
    description: 'On the receipt, on a sign at the register, told before the charge, or not required',
    example: 'receipt',
  })
  kind: DisclosureKind;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The wording, only where the law prescribes one',
    example: null,
  })
  text: string | null;

  @ApiProperty({
    description: 'The receipt must show the subtotal, the rounding adjustment and the total',
    example: false,
  })
  itemized: boolean;
}

@ApiSchema({ name: 'SmallTotal' })
export class SmallTotalDto implements SmallTotal {
  @ApiProperty({ enum: SMALL_TOTAL_KINDS, example: 'round_up_to_nickel' })
  kind: SmallTotalRule['kind'];

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 99,
    required: false,
    description: 'For `exempt_up_to`: totals of this many cents or fewer are not rounded',
    example: 4,
  })
  cents?: number;
}

@ApiSchema({ name: 'JurisdictionRule' })
export class JurisdictionRuleDto implements JurisdictionRule {
  @ApiProperty({
    description:
      'The place the rule is for: `US` (federal), `<state>`, `<state>-<county>` or `<state>-<county>-<city>`',
    minLength: 1,
    example: 'AL',
  })
  lookup_key: string;

  @ApiProperty({
    minLength: 1,
    description: '`US`, `US-<state>`, `US-<state>-<county>` or `US-<state>-<county>-<city>`',
    example: 'US-AL',
  })
  jurisdiction_id: string;

  @ApiProperty({ enum: JURISDICTION_LEVELS, description: 'The level of the place the rule is for', example: 'state' })
  jurisdiction_level: JurisdictionLevel;

  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: STATE_CODE.source,
    description: 'Two-letter code; null for the federal rule',
    example: 'AL',
  })
  state: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    minLength: 1,
    description: 'County name; null for a rule above county level',
    example: null,
  })
  county: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    minLength: 1,
    description: 'City name; null for a rule above city level',
    example: null,
  })
  city: string | null;

  @ApiProperty({ enum: ROUNDING_MODES, example: 'symmetrical_rounding' })
  rounding_mode: RoundingMode;

  @ApiProperty({
    type: 'string',
    enum: RULE_CHOICES,
    nullable: true,
    description:
      'What the law leaves to the retailer: `either_neighbor`, it may round to either neighbouring multiple of 5 cents, and compliance accepts both; null: the mode decides',
    example: null,
  })
  choice: RuleChoice | null;

  @ApiProperty({ enum: ENFORCEMENTS, example: 'permissive' })
  enforcement: Enforcement;

  @ApiProperty({
    enum: RULE_STATUSES,
    description:
      'Only an `enacted` state or local rule applies to a sale; where none does, the federal rule applies, whatever its status',
    example: 'enacted',
  })
  status: RuleStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The bill or regulation; null where there is none',
    example: 'HB 545 (2026 Regular Session) = Act 2026-548',
  })
  legislation: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description: 'The first day the rule is in force; null: in force, with no start date known',
    example: '2026-04-17',
  })
  effective_date: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description:
      'The first day the version no longer applies: it covers sales on [effective_date, expires_date); null: open-ended',
    example: null,
  })
  expires_date: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description: 'When the law was signed, adopted or issued; null when unknown or not enacted',
    example: '2026-04-17',
  })
  enacted_date: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description:
      'For a pending or proposed bill (required for those in the seed data): when the session holding it ends; past it, or when it is unknown, the record is stale until its status changes',
    example: null,
  })
  session_ends: string | null;

  @ApiProperty({ description: 'Whether receipts must disclose the rounding', example: false })
  disclosure_required: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The disclosure wording the law prescribes; null where it prescribes none',
    example: null,
  })
  disclosure_text: string | null;

  @ApiProperty({ description: 'Whether the place also has a law that obliges shops to accept cash', example: false })
  cash_acceptance_law: boolean;

  @ApiProperty({
    type: [String],
    description: 'Where the rule was read: URLs',
    example: ['https://www.revenue.alabama.gov/?p=69817'],
  })
  source: string[];

  @ApiProperty({
    description: 'What the sources say, and what is uncertain',
    example: 'Authorizes rounding of the total of in-person cash transactions; not for non-cash payments.',
  })
  notes: string;

  @ApiProperty({
    type: 'string',
    format: 'date',
    description:
      'When the record was last checked against its sources (not the date a search ran); older than 90 days is stale',
    example: '2026-04-21',
  })
  last_verified: string;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    required: false,
    description:
      'When the sources were last searched and nothing new was found; it never makes a record current (absent on versions recorded before it existed: null)',
    example: '2026-11-25',
  })
  last_searched: string | null;

  @ApiProperty({
    type: 'boolean',
    nullable: true,
    required: false,
    description:
      'Whether a law of the place bars charging cash payers more than others (a cash-acceptance law), so that a sale rounded up there is `WARN` with `CASH_SURCHARGE_BARRED`; null where the record is silent (absent on versions recorded before it existed)',
    example: null,
  })
  cash_surcharge_barred: boolean | null;

  @ApiProperty({ enum: SOURCE_KINDS, description: 'The strongest source behind the record', example: 'statute' })
  source_kind: SourceKind;

  @ApiProperty({
    enum: CONFIDENCES,
    description:
      'How sure the record is: `high` only with official text (statute, regulation, agency guidance, bill text)',
    example: 'medium',
  })
  confidence: Confidence;

  @ApiProperty({
    enum: RULE_TYPES,
    description: 'Only `rounding` rules decide how a sale is rounded',
    example: 'rounding',
  })
  rule_type: RuleType;

  @ApiProperty({
    enum: RULE_SCOPES,
    description: '`retail` for shops; other scopes (e.g. `government_payments`) never apply to a sale',
    example: 'retail',
  })
  scope: RuleScope;

  @ApiProperty({
    enum: ROUNDS,
    description: '`total`: the amount due is rounded; `change`: the change handed back is',
    example: 'total',
  })
  rounds: Rounds;

  @ApiProperty({ description: 'No rounding when the customer tenders the exact unrounded cash amount', example: false })
  exact_change_exempt: boolean;

  @ApiProperty({ type: () => SmallTotalDto, nullable: true, description: 'The tiny-total rule, where the law has one' })
  small_total: SmallTotalRule | null;

  @ApiProperty({ enum: REFUND_POLICIES, description: 'How a cash refund is rounded', example: 'mirror_original' })
  refunds: RefundPolicy;

  @ApiProperty({ type: () => RuleDisclosureDto, description: 'Where and how the customer is told of the rounding' })
  disclosure: RuleDisclosureDto;
}

@ApiSchema({ name: 'ResolutionWarning' })
export class ResolutionWarningDto implements ResolutionWarning {
  @ApiProperty({
    enum: RESOLUTION_WARNING_CODES,
    description:
      '`STATE_ZIP_MISMATCH`: the state given disagrees with the ZIP, whose rule applies; `UNKNOWN_ZIP_FALLBACK`: the ZIP is not in the data, the federal rule applies; ' +
      '`NO_LOCATION_FALLBACK`: no ZIP nor state, the federal rule applies; `UNKNOWN_COUNTY`: the county is not in the data for the state; ' +
      '`CITY_WITHOUT_COUNTY`: a city given without its county was ignored',
    example: 'UNKNOWN_COUNTY',
  })
  code: ResolutionWarningCode;

  @ApiProperty({ example: 'county Atlantis is not in the ZIP data for AL; it cannot be verified' })
  message: string;
}

@ApiSchema({ name: 'ResolvedLocation' })
export class ResolvedLocationDto implements ResolvedLocation {
  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: ZIP_CODE.source,
    description: 'null when the location was not given by ZIP',
    example: '35203',
  })
  zip: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: STATE_CODE.source, example: 'AL' })
  state: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'As the ZIP data spells it where it knows the county, else as given',
    example: 'Jefferson',
  })
  county: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'As the ZIP data spells it where it knows the city, else as given',
    example: 'Birmingham',
  })
  city: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The county's 5-digit FIPS code; null where the county is not known",
    example: '01073',
  })
  county_fips: string | null;
}

@ApiSchema({ name: 'DataSummary' })
export class DataSummaryDto implements DataSummary {
  @ApiProperty({
    type: 'string',
    nullable: true,
    format: 'date',
    description: 'The newest `last_verified` of any rule version',
    example: '2026-10-01',
  })
  last_verified: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Rule versions that are stale today: a pending or proposed bill past its session’s end (or with none recorded), or a record not verified for 90 days (`GET /jurisdictions?stale=true` lists them)',
    example: 12,
  })
  stale: number;

  @ApiProperty({ type: 'integer', example: 33791 })
  zip_codes: number;

  @ApiProperty({ type: 'integer', example: 56 })
  rules: number;
}
