import { ApiProperty } from '@nestjs/swagger';
import { DomainError, type FieldError } from '../common/errors/domain-error';
import { ROUNDING_MODES, RoundingMode } from '../rounding/rounding-engine';

export const JURISDICTION_LEVELS = ['federal', 'state', 'county', 'city'] as const;
export type JurisdictionLevel = (typeof JURISDICTION_LEVELS)[number];

export const ENFORCEMENTS = ['mandatory', 'permissive', 'voluntary', 'none'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

export const RULE_STATUSES = ['enacted', 'pending', 'proposed', 'failed', 'no_legislation'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];

export const STATE_CODE = /^[A-Z]{2}$/;
const RULE_SCOPE = /^[a-z][a-z_]*$/;

/** A cash-acceptance ordinance says cash must be taken, not how to round it. */
export const RULE_TYPES = ['rounding', 'cash_acceptance'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** One entry of seeds/jurisdiction-rules.json, or a version of it recorded later by an admin. */
export class JurisdictionRule {
  @ApiProperty({
    description: 'The place the rule is for: `US` (federal), `<state>`, `<state>-<county>` or `<state>-<county>-<city>`',
    minLength: 1,
    example: 'AL',
  })
  lookup_key: string;

  @ApiProperty({ minLength: 1, description: '`US`, `US-<state>`, `US-<state>-<county>` or `US-<state>-<county>-<city>`', example: 'US-AL' })
  jurisdiction_id: string;

  @ApiProperty({ enum: JURISDICTION_LEVELS, description: 'The level of the place the rule is for', example: 'state' })
  jurisdiction_level: JurisdictionLevel;

  @ApiProperty({ type: 'string', nullable: true, pattern: STATE_CODE.source, description: 'Two-letter code; null for the federal rule', example: 'AL' })
  state: string | null;

  @ApiProperty({ type: 'string', nullable: true, minLength: 1, description: 'County name; null for a rule above county level', example: null })
  county: string | null;

  @ApiProperty({ type: 'string', nullable: true, minLength: 1, description: 'City name; null for a rule above city level', example: null })
  city: string | null;

  @ApiProperty({ enum: ROUNDING_MODES, example: 'symmetrical_rounding' })
  rounding_mode: RoundingMode;

  @ApiProperty({ enum: ENFORCEMENTS, example: 'permissive' })
  enforcement: Enforcement;

  @ApiProperty({
    enum: RULE_STATUSES,
    description: 'Only an `enacted` state or local rule applies to a sale; where none does, the federal rule applies, whatever its status',
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

  @ApiProperty({ type: [String], description: 'Where the rule was read: URLs', example: ['https://www.revenue.alabama.gov/?p=69817'] })
  source: string[];

  @ApiProperty({ description: 'What the sources say, and what is uncertain', example: 'Authorizes rounding of the total of in-person cash transactions; not for non-cash payments.' })
  notes: string;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description: 'The date the rule was last checked against its sources',
    example: '2026-04-21',
  })
  as_of: string | null;

  @ApiProperty({ enum: RULE_TYPES, description: 'Only `rounding` rules decide how a sale is rounded', example: 'rounding' })
  rule_type: RuleType;

  /** `retail` for shops; other scopes (e.g. `government_payments`) never apply to a sale. */
  @ApiProperty({
    pattern: RULE_SCOPE.source,
    description: '`retail` for shops; other scopes (e.g. `government_payments`) never apply to a sale',
    example: 'retail',
  })
  scope: string;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** All that is wrong with one rule, so an admin or a seed author fixes it in one pass: 400 with one detail per field. */
export class RuleValidationError extends DomainError {
  constructor(readonly problems: FieldProblem[]) {
    super('VALIDATION_ERROR', problems.map((p) => `${p.field}: ${p.message}`).join('; '), 400, fieldErrors(problems));
  }
}

function fieldErrors(problems: FieldProblem[]): FieldError[] {
  const byField = new Map<string, string[]>();
  for (const { field, message } of problems) byField.set(field, [...(byField.get(field) ?? []), `${field} ${message}`]);
  return [...byField].map(([field, messages]) => ({ field, messages }));
}


/** The identity of a rule version: a later one with the same identity replaces it. */
export function ruleVersionKey(rule: JurisdictionRule): string {
  return [rule.lookup_key, rule.rule_type, rule.scope, rule.effective_date ?? ''].join('|');
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD; checked by arithmetic because every resolution checks one. */
export function isIsoDate(value: unknown): value is string {
  const match = typeof value === 'string' ? ISO_DATE.exec(value) : null;
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return daysInMonth !== undefined && day >= 1 && day <= daysInMonth;
}

function oneOf(values: readonly string[]) {
  return (v: unknown) => (typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`);
}
const nonEmptyString = (v: unknown) => (typeof v === 'string' && v.trim().length > 0 ? null : 'must be a non-empty string');
const nullableString = (v: unknown) => (v === null || typeof v === 'string' ? null : 'must be a string or null');
const nullableDate = (v: unknown) => (v === null || isIsoDate(v) ? null : 'must be an ISO date (YYYY-MM-DD) or null');
const boolean = (v: unknown) => (typeof v === 'boolean' ? null : 'must be true or false');

const CHECKS: Record<keyof JurisdictionRule, (value: unknown) => string | null> = {
  lookup_key: nonEmptyString,
  jurisdiction_id: nonEmptyString,
  jurisdiction_level: oneOf(JURISDICTION_LEVELS),
  state: (v) => (v === null || (typeof v === 'string' && STATE_CODE.test(v)) ? null : 'must be a two-letter upper-case code or null'),
  county: (v) => (v === null ? null : nonEmptyString(v)),
  city: (v) => (v === null ? null : nonEmptyString(v)),
  rounding_mode: oneOf(ROUNDING_MODES),
  enforcement: oneOf(ENFORCEMENTS),
  status: oneOf(RULE_STATUSES),
  legislation: nullableString,
  effective_date: nullableDate,
  disclosure_required: boolean,
  disclosure_text: nullableString,
  cash_acceptance_law: boolean,
  source: (v) => (Array.isArray(v) && v.every((url) => typeof url === 'string') ? null : 'must be an array of strings'),
  notes: (v) => (typeof v === 'string' ? null : 'must be a string'),
  as_of: nullableDate,
  rule_type: oneOf(RULE_TYPES),
  scope: (v) => (typeof v === 'string' && RULE_SCOPE.test(v) ? null : 'must be a snake_case word such as retail'),
};

const FIELDS = Object.keys(CHECKS) as (keyof JurisdictionRule)[];

/** The place fields each level must (and must not) carry, and the keys they imply. */
function placeProblems(rule: JurisdictionRule): FieldProblem[] {
  const { jurisdiction_level: level, state, county, city } = rule;
  const depth = JURISDICTION_LEVELS.indexOf(level);
  const problems: FieldProblem[] = [];
  const expectPresent = (field: 'state' | 'county' | 'city', value: string | null, present: boolean) => {
    if ((value !== null) !== present) {
      problems.push({ field, message: present ? `is required for a ${level} rule` : `must be null for a ${level} rule` });
    }
  };
  expectPresent('state', state, depth >= 1);
  expectPresent('county', county, depth >= 2);
  expectPresent('city', city, depth >= 3);
  if (problems.length > 0) return problems;

  const key = [state, county, city].filter((part) => part !== null).join('-') || 'US';
  const id = key === 'US' ? 'US' : `US-${key}`;
  if (rule.lookup_key !== key) problems.push({ field: 'lookup_key', message: `must be ${key} for this place` });
  if (rule.jurisdiction_id !== id) problems.push({ field: 'jurisdiction_id', message: `must be ${id} for this place` });
  return problems;
}

/** Checks an untrusted object field by field; the result is a fresh, plain rule. */
export function parseJurisdictionRule(raw: unknown): JurisdictionRule {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new RuleValidationError([{ field: '(rule)', message: 'must be an object' }]);
  }
  const record = raw as Record<string, unknown>;
  const problems: FieldProblem[] = Object.keys(record)
    .filter((field) => !(FIELDS as readonly string[]).includes(field))
    .map((field) => ({ field, message: 'is not a rule field' }));
  for (const field of FIELDS) {
    const message = field in record ? CHECKS[field](record[field]) : 'is required';
    if (message) problems.push({ field, message });
  }
  if (problems.length > 0) throw new RuleValidationError(problems);

  const rule = Object.fromEntries(FIELDS.map((field) => [field, record[field]])) as unknown as JurisdictionRule;
  rule.source = [...rule.source];
  const placeErrors = placeProblems(rule);
  if (placeErrors.length > 0) throw new RuleValidationError(placeErrors);
  return rule;
}
