/**
 * Cash rounding arithmetic on integer cents. Pure: no Nest, no DB, no clock.
 * The rules it enforces are listed in ENFORCED_ROUNDING_RULES so /health can cite them.
 */

import { DomainError } from '../common/errors/domain-error';
import type { EnforcedRule } from '../health/enforced-rules';

export const ROUNDING_MODES = [
  'swedish_rounding',
  'mandatory_round_down',
  'mandatory_round_up',
  'symmetrical_rounding',
  'nearest_nickel',
  'nearest_cent',
  'nearest_dime',
  'none',
] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

export const TENDER_TYPES = ['cash', 'card', 'ebt', 'mobile'] as const;
export type TenderType = (typeof TENDER_TYPES)[number];

const EBT_RULE: EnforcedRule = { citation: '7 CFR 278.2', rule: 'EBT tenders are never rounded' };
const NON_CASH_RULE: EnforcedRule = {
  citation: 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334',
  rule: 'Only the cash tender is rounded; card and mobile tenders never are',
};

/** Only what roundTender and roundCents really do; each citation is from seeds/SOURCES.md. */
export const ENFORCED_ROUNDING_RULES: readonly EnforcedRule[] = [
  EBT_RULE,
  NON_CASH_RULE,
  { citation: 'Ala. Act 2026-548 (HB 545)', rule: 'In a split tender only the cash portion is rounded' },
  {
    citation: 'Ala. Act 2026-548 (HB 545); Tex. Comptroller STAR 202512001M',
    rule: 'Tax is taken as computed on the unrounded subtotal and never recomputed after rounding',
  },
  { citation: 'Ariz. SB 1108', rule: 'The final total is rounded, never individual items' },
  {
    citation: 'Treasury Penny Production Cessation FAQ (2025-12-23); NCSL (2025-11-21)',
    rule: 'Symmetrical rounding: a last digit of 1, 2, 6, 7 rounds down and 3, 4, 8, 9 rounds up to a multiple of 5 cents',
  },
];

export function isRoundingMode(value: unknown): value is RoundingMode {
  return typeof value === 'string' && (ROUNDING_MODES as readonly string[]).includes(value);
}

export function isTenderType(value: unknown): value is TenderType {
  return typeof value === 'string' && (TENDER_TYPES as readonly string[]).includes(value);
}

/** Rounds a non-negative amount; signs are handled by roundCents. */
function roundMagnitude(cents: number, mode: RoundingMode): number {
  const nickelRest = cents % 5;
  switch (mode) {
    case 'nearest_nickel':
    case 'symmetrical_rounding':
    case 'swedish_rounding':
      // A rest of 1-2 goes down, 3-4 up: there is no tie to break.
      return nickelRest <= 2 ? cents - nickelRest : cents + 5 - nickelRest;
    case 'mandatory_round_down':
      return cents - nickelRest;
    case 'mandatory_round_up':
      return nickelRest === 0 ? cents : cents + 5 - nickelRest;
    case 'nearest_dime': {
      const dimeRest = cents % 10;
      return dimeRest <= 5 ? cents - dimeRest : cents + 10 - dimeRest;
    }
    case 'nearest_cent':
    case 'none':
      return cents;
  }
}

/** Refunds and voids round the magnitude and keep the sign, so round(-x) = -round(x). */
export function roundCents(cents: number, mode: RoundingMode): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`amount must be an integer number of cents, got ${cents}`);
  if (!isRoundingMode(mode)) throw new RangeError(`unknown rounding mode ${String(mode)}`);
  const rounded = roundMagnitude(Math.abs(cents), mode);
  return cents < 0 ? -rounded : rounded;
}

export function roundsAmounts(mode: RoundingMode): boolean {
  return mode !== 'none' && mode !== 'nearest_cent';
}

export interface Tender {
  type: TenderType;
  amount_cents: number;
}

export interface TenderInput {
  payment_method: TenderType;
  tenders?: readonly Tender[];
  subtotal_cents: number;
  tax_total_cents: number;
  mode: RoundingMode;
}

export interface TenderExemption {
  tender: Exclude<TenderType, 'cash'>;
  amount_cents: number;
  citation: string;
  rule: string;
}

export interface TenderCalculation {
  ledger_total_cents: number;
  /** Unrounded amount paid in cash. */
  cash_portion_cents: number;
  /** Single tender: the amount to collect after rounding. Split tender: the rounded cash portion. */
  cash_total_cents: number;
  /** Rounded cash portion minus cash portion; for a single cash tender that is cash total minus ledger. */
  rounding_delta_cents: number;
  rounding_applied: boolean;
  /** Non-cash amounts left unrounded, with the rule that exempts them. */
  exemptions?: TenderExemption[];
}

export type TenderErrorReason = 'TENDER_MISMATCH' | 'INVALID_AMOUNT' | 'INVALID_TENDER';

/** A sale the caller must fix: 400 `VALIDATION_ERROR` naming the field; `reason` is stable. */
export class TenderError extends DomainError {
  constructor(
    readonly reason: TenderErrorReason,
    readonly field: string,
    message: string,
  ) {
    super('VALIDATION_ERROR', message, 400, [{ field, messages: [message] }]);
  }
}

function exemptionFor(tender: Exclude<TenderType, 'cash'>, amount_cents: number): TenderExemption {
  const { citation, rule } = tender === 'ebt' ? EBT_RULE : NON_CASH_RULE;
  return { tender, amount_cents, citation, rule };
}

function requireCents(value: number, field: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new TenderError('INVALID_AMOUNT', field, `${field} must be an integer number of cents`);
  }
}

function validateTenders(tenders: readonly Tender[], ledger: number): void {
  tenders.forEach((tender, i) => {
    if (!isTenderType(tender.type)) {
      throw new TenderError('INVALID_TENDER', `tenders.${i}.type`, `tenders.${i}.type must be one of ${TENDER_TYPES.join(', ')}`);
    }
    requireCents(tender.amount_cents, `tenders.${i}.amount_cents`);
    if (tender.amount_cents < 0) {
      throw new TenderError('INVALID_AMOUNT', `tenders.${i}.amount_cents`, `tenders.${i}.amount_cents must not be negative`);
    }
  });
  const sum = tenders.reduce((total, tender) => total + tender.amount_cents, 0);
  if (sum !== ledger) {
    throw new TenderError('TENDER_MISMATCH', 'tenders', `tenders add up to ${sum} cents but subtotal_cents + tax_total_cents is ${ledger}`);
  }
}

/**
 * Rounds what the customer pays in cash and nothing else. Tax is taken as given:
 * the caller computed it on the unrounded subtotal. With `tenders`, they decide the
 * split and `payment_method` is only recorded by the caller.
 */
export function roundTender(input: TenderInput): TenderCalculation {
  requireCents(input.subtotal_cents, 'subtotal_cents');
  requireCents(input.tax_total_cents, 'tax_total_cents');
  const ledger = input.subtotal_cents + input.tax_total_cents;
  requireCents(ledger, 'subtotal_cents + tax_total_cents');
  const split = input.tenders !== undefined && input.tenders.length > 0 ? input.tenders : undefined;
  if (split) validateTenders(split, ledger);
  else if (!isTenderType(input.payment_method)) {
    throw new TenderError('INVALID_TENDER', 'payment_method', `payment_method must be one of ${TENDER_TYPES.join(', ')}`);
  }
  const tenders = split ?? [{ type: input.payment_method, amount_cents: ledger }];

  const amountsByType = new Map<TenderType, number>();
  for (const { type, amount_cents } of tenders) amountsByType.set(type, (amountsByType.get(type) ?? 0) + amount_cents);

  // Several cash tenders are one cash payment: the total is rounded once.
  const cashPortion = amountsByType.get('cash') ?? 0;
  const roundedCash = roundCents(cashPortion, input.mode);
  const delta = roundedCash - cashPortion;
  const exemptions = [...amountsByType]
    .filter((entry): entry is [Exclude<TenderType, 'cash'>, number] => entry[0] !== 'cash')
    .map(([type, amount]) => exemptionFor(type, amount));

  return {
    ledger_total_cents: ledger,
    cash_portion_cents: cashPortion,
    cash_total_cents: split ? roundedCash : ledger + delta,
    rounding_delta_cents: delta,
    rounding_applied: cashPortion !== 0 && roundsAmounts(input.mode),
    ...(exemptions.length > 0 ? { exemptions } : {}),
  };
}
