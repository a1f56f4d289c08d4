/**
 * Cash rounding arithmetic on integer cents. Pure: no Nest, no DB, no clock.
 * The rules it enforces are listed in ENFORCED_ROUNDING_RULES so /health can cite them.
 */

/** A rule the service enforces in code, with the law or regulation it comes from. */
export interface EnforcedRule {
  citation: string;
  rule: string;
}

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

export const EBT_RULE: EnforcedRule = { citation: '7 CFR 278.2', rule: 'EBT tenders are never rounded' };
export const NON_CASH_RULE: EnforcedRule = {
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
    citation: 'NCSL (2025-11-21), the method this service defaults to where no state or local law sets one',
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

/** The least amount of cash that does not round to nothing: 3 cents under the nickel modes, 5 rounding down, 6 to the dime. */
export function leastUnroundedToZero(mode: RoundingMode): number {
  let cents = 1;
  while (roundCents(cents, mode) === 0) cents++;
  return cents;
}

export function roundsAmounts(mode: RoundingMode): boolean {
  return mode !== 'none' && mode !== 'nearest_cent';
}
