import { DomainError, type FieldError } from '../platform/errors/domain-error';
import {
  REFUND_POLICIES,
  ROUNDS,
  SMALL_TOTAL_KINDS,
  type RefundPolicy,
  type Rounds,
  type SmallTotalRule,
} from './cash-settlement';
import { ROUNDING_MODES, RoundingMode } from './rounding-engine';

export const JURISDICTION_LEVELS = ['federal', 'state', 'county', 'city'] as const;
export type JurisdictionLevel = (typeof JURISDICTION_LEVELS)[number];

export const ENFORCEMENTS = ['mandatory', 'permissive', 'voluntary', 'none'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

export const RULE_STATUSES = ['enacted', 'pending', 'proposed', 'failed', 'no_legislation'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];

export const STATE_CODE = /^[A-Z]{2}$/;

/** Only `retail` rounding rules apply to a sale; the others are listed for what they are. */
export const RULE_SCOPES = [
  'retail',
  'government_payments',
  'tax_payments',
  'wages',
  'secondhand_dealers',
  'alcohol_sales',
  'cash_acceptance',
] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];

/** The strongest source behind a record, strongest first. */
export const SOURCE_KINDS = ['statute', 'regulation', 'agency_guidance', 'bill_text', 'news', 'vendor'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** Official text: the only kinds that can carry `confidence: high`. */
export const OFFICIAL_SOURCE_KINDS: readonly SourceKind[] = ['statute', 'regulation', 'agency_guidance', 'bill_text'];

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/**
 * What a law leaves to the retailer: `either_neighbor`, the retailer may round to either neighbouring
 * multiple of 5 cents (Indiana). Null: the mode decides.
 */
export const RULE_CHOICES = ['either_neighbor'] as const;
export type RuleChoice = (typeof RULE_CHOICES)[number];

export const DISCLOSURE_KINDS = ['receipt', 'sign', 'pre_charge', 'none'] as const;
export type DisclosureKind = (typeof DISCLOSURE_KINDS)[number];

/** Where and how a customer is told of the rounding. */
export interface RuleDisclosure {
  kind: DisclosureKind;
  text: string | null;
  itemized: boolean;
}

/** The tiny-total rule of a law: 1–2¢ totals become 5¢, or totals up to `cents` are not rounded. */
export interface SmallTotal {
  kind: SmallTotalRule['kind'];
  cents?: number;
}

/** A cash-acceptance ordinance says cash must be taken, not how to round it. */
export const RULE_TYPES = ['rounding', 'cash_acceptance'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** One entry of seeds/jurisdiction-rules.json, or a version of it recorded later by an admin. */
export interface JurisdictionRule {
  lookup_key: string;
  jurisdiction_id: string;
  jurisdiction_level: JurisdictionLevel;
  state: string | null;
  county: string | null;
  city: string | null;
  rounding_mode: RoundingMode;
  choice: RuleChoice | null;
  enforcement: Enforcement;
  status: RuleStatus;
  legislation: string | null;
  effective_date: string | null;
  expires_date: string | null;
  enacted_date: string | null;
  session_ends: string | null;
  disclosure_required: boolean;
  disclosure_text: string | null;
  cash_acceptance_law: boolean;
  source: string[];
  notes: string;
  last_verified: string;
  /** When the sources were last searched with nothing new found: unlike `last_verified`, it never makes a record current. */
  last_searched: string | null;
  source_kind: SourceKind;
  confidence: Confidence;
  /**
   * Whether a law of the place bars charging a cash payer more than others (a cash-acceptance law's
   * anti-surcharge clause), so that rounding a cash total up is at risk; null where the record is silent.
   */
  cash_surcharge_barred: boolean | null;
  rule_type: RuleType;
  scope: RuleScope;
  rounds: Rounds;
  exact_change_exempt: boolean;
  small_total: SmallTotalRule | null;
  refunds: RefundPolicy;
  disclosure: RuleDisclosure;
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

/**
 * How a sale names the version it was rounded under: the place, the scope, and the day the version
 * took effect (`US-WA:retail@2026-06-11`; `undated` for a version in force with no known start).
 */
export function ruleVersionId(rule: JurisdictionRule): string {
  return `${rule.jurisdiction_id}:${rule.scope}@${rule.effective_date ?? 'undated'}`;
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
const nonEmptyString = (v: unknown) =>
  typeof v === 'string' && v.trim().length > 0 ? null : 'must be a non-empty string';
const nullableString = (v: unknown) => (v === null || typeof v === 'string' ? null : 'must be a string or null');
const nullableDate = (v: unknown) => (v === null || isIsoDate(v) ? null : 'must be an ISO date (YYYY-MM-DD) or null');
const boolean = (v: unknown) => (typeof v === 'boolean' ? null : 'must be true or false');

const CHECKS: Record<keyof JurisdictionRule, (value: unknown) => string | null> = {
  lookup_key: nonEmptyString,
  jurisdiction_id: nonEmptyString,
  jurisdiction_level: oneOf(JURISDICTION_LEVELS),
  state: (v) =>
    v === null || (typeof v === 'string' && STATE_CODE.test(v)) ? null : 'must be a two-letter upper-case code or null',
  county: (v) => (v === null ? null : nonEmptyString(v)),
  city: (v) => (v === null ? null : nonEmptyString(v)),
  rounding_mode: oneOf(ROUNDING_MODES),
  choice: (v) => (v === null ? null : oneOf(RULE_CHOICES)(v)),
  enforcement: oneOf(ENFORCEMENTS),
  status: oneOf(RULE_STATUSES),
  legislation: nullableString,
  effective_date: nullableDate,
  disclosure_required: boolean,
  disclosure_text: nullableString,
  cash_acceptance_law: boolean,
  source: (v) => (Array.isArray(v) && v.every((url) => typeof url === 'string') ? null : 'must be an array of strings'),
  notes: (v) => (typeof v === 'string' ? null : 'must be a string'),
  expires_date: nullableDate,
  enacted_date: nullableDate,
  session_ends: nullableDate,
  last_verified: (v) => (isIsoDate(v) ? null : 'must be an ISO date (YYYY-MM-DD)'),
  last_searched: nullableDate,
  source_kind: oneOf(SOURCE_KINDS),
  confidence: oneOf(CONFIDENCES),
  cash_surcharge_barred: (v) => (v === null ? null : boolean(v)),
  rule_type: oneOf(RULE_TYPES),
  scope: oneOf(RULE_SCOPES),
  rounds: oneOf(ROUNDS),
  exact_change_exempt: boolean,
  small_total: (v) => {
    if (v === null) return null;
    const rule = v as Record<string, unknown>;
    if (typeof v !== 'object' || Array.isArray(v)) return 'must be an object or null';
    if (rule.kind === 'round_up_to_nickel')
      return Object.keys(rule).length === 1 ? null : 'round_up_to_nickel takes no other field';
    if (rule.kind === 'exempt_up_to') {
      const cents = rule.cents;
      return Object.keys(rule).length === 2 &&
        Number.isInteger(cents) &&
        (cents as number) >= 1 &&
        (cents as number) <= 99
        ? null
        : 'exempt_up_to needs cents, an integer from 1 to 99, and nothing else';
    }
    return `kind must be one of ${SMALL_TOTAL_KINDS.join(', ')}`;
  },
  refunds: oneOf(REFUND_POLICIES),
  disclosure: (v) => {
    const d = v as Record<string, unknown>;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
    const extra = Object.keys(d).filter((key) => !['kind', 'text', 'itemized'].includes(key));
    if (extra.length > 0) return `has unknown fields ${extra.join(', ')}`;
    return (
      oneOf(DISCLOSURE_KINDS)(d.kind) ??
      nullableString(d.text) ??
      (typeof d.itemized === 'boolean' ? null : 'itemized must be true or false')
    );
  },
};

const FIELDS = Object.keys(CHECKS) as (keyof JurisdictionRule)[];
/** Fields added after clients were written: absent means null, so a body valid before stays valid. */
const OPTIONAL_FIELDS: ReadonlySet<keyof JurisdictionRule> = new Set([
  'choice',
  'last_searched',
  'cash_surcharge_barred',
]);

/** The place fields each level must (and must not) carry, and the keys they imply. */
function placeProblems(rule: JurisdictionRule): FieldProblem[] {
  const { jurisdiction_level: level, state, county, city } = rule;
  const depth = JURISDICTION_LEVELS.indexOf(level);
  const problems: FieldProblem[] = [];
  const expectPresent = (field: 'state' | 'county' | 'city', value: string | null, present: boolean) => {
    if ((value !== null) !== present) {
      problems.push({
        field,
        message: present ? `is required for a ${level} rule` : `must be null for a ${level} rule`,
      });
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
    const message = field in record ? CHECKS[field](record[field]) : OPTIONAL_FIELDS.has(field) ? null : 'is required';
    if (message) problems.push({ field, message });
  }
  if (problems.length > 0) throw new RuleValidationError(problems);

  const rule = structuredClone(
    Object.fromEntries(FIELDS.map((field) => [field, record[field] ?? null])),
  ) as unknown as JurisdictionRule;
  const ruleErrors = [...placeProblems(rule), ...versionProblems(rule)];
  if (ruleErrors.length > 0) throw new RuleValidationError(ruleErrors);
  return rule;
}

/** What the version 2 fields must agree on, with each other and with the spec's disclosure fields. */
function versionProblems(rule: JurisdictionRule): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (rule.expires_date !== null && (rule.effective_date === null || rule.expires_date <= rule.effective_date)) {
    problems.push({ field: 'expires_date', message: 'must be after effective_date, which it needs' });
  }
  if (rule.confidence === 'high' && !OFFICIAL_SOURCE_KINDS.includes(rule.source_kind)) {
    problems.push({
      field: 'confidence',
      message: `cannot be high on a ${rule.source_kind} source: high needs official text`,
    });
  }
  if (rule.disclosure_required !== (rule.disclosure.kind !== 'none')) {
    problems.push({ field: 'disclosure_required', message: 'must be true exactly when disclosure.kind is not none' });
  }
  if (rule.disclosure_text !== rule.disclosure.text)
    problems.push({ field: 'disclosure_text', message: 'must equal disclosure.text' });
  return problems;
}

/**
 * A rule recorded before version 2 (an admin's change in the log) read as version 2: what it did
 * not say takes the value that rounds as it rounded then. Its `as_of` becomes `last_verified`, and
 * its sources are not re-judged: `news` and `low` until someone verifies it. The fields added since
 * are optional (parseJurisdictionRule reads their absence as null).
 */
export function upgradeRecordedRule(raw: Record<string, unknown>): Record<string, unknown> {
  if ('last_verified' in raw) return raw;
  const { as_of: asOf, ...rest } = raw;
  return {
    expires_date: null,
    enacted_date: null,
    session_ends: null,
    last_verified: asOf ?? '1970-01-01',
    source_kind: 'news',
    confidence: 'low',
    rounds: 'total',
    exact_change_exempt: false,
    small_total: null,
    refunds: 'mirror_original',
    disclosure: {
      kind: rest.disclosure_required ? 'receipt' : 'none',
      text: rest.disclosure_text ?? null,
      itemized: false,
    },
    ...rest,
  };
}
