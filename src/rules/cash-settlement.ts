/**
 * What the customer hands over and gets back, under what a rule's law says beyond its mode: round
 * the amount due or the change, leave exact change alone, and the tiny-total rule. Pure: integer
 * cents in, integer cents out (docs/design.md, "Rule model, version 2").
 */

import { DomainError } from '../platform/errors/domain-error';
import {
  EBT_RULE,
  isTenderType,
  NON_CASH_RULE,
  roundCents,
  roundsAmounts,
  TENDER_TYPES,
  type RoundingMode,
  type TenderType,
} from './rounding-engine';

export const ROUNDS = ['total', 'change'] as const;
/** `total`: the amount due is rounded. `change`: the change handed back is (Idaho, Alabama). */
export type Rounds = (typeof ROUNDS)[number];

export const SMALL_TOTAL_KINDS = ['round_up_to_nickel', 'exempt_up_to'] as const;
/** 1–2¢ totals become 5¢ (the federal bill, HI, IA, NE, WY), or totals up to `cents` are not rounded (NY, WV). */
export type SmallTotalRule = { kind: 'round_up_to_nickel' } | { kind: 'exempt_up_to'; cents: number };

export const REFUND_POLICIES = ['mirror_original', 'exact_amount', 'round_refund'] as const;
/**
 * `mirror_original`: a refund of the whole cash total hands back what was collected, a part is rounded
 * like a sale; `exact_amount`: the cash refunded is exactly the amount refunded (Vermont);
 * `round_refund`: the refund is rounded under the rule's mode.
 */
export type RefundPolicy = (typeof REFUND_POLICIES)[number];

export const ROUNDING_EXEMPTIONS = ['tender', 'exact_change', 'small_total', 'no_rule', 'refund_policy'] as const;
/**
 * Why a cash amount was not rounded as the mode alone would round it: no cash was tendered
 * (`tender`), the customer gave the exact unrounded amount (`exact_change`), the tiny-total rule
 * applied (`small_total`), the rule rounds nothing (`no_rule`), the refund policy says exact (`refund_policy`).
 */
export type RoundingExemption = (typeof ROUNDING_EXEMPTIONS)[number];

/** A rule's cash terms, as a version of it records them. */
export interface CashTerms {
  mode: RoundingMode;
  rounds: Rounds;
  exact_change_exempt: boolean;
  small_total: SmallTotalRule | null;
}

export interface CashSettlement {
  /** What the customer pays in cash. */
  cash_total_cents: number;
  rounding_delta_cents: number;
  /** With a tender: what is handed back; `cash_tendered_cents - change_due_cents = cash_total_cents`. */
  change_due_cents?: number;
  rounding_exemption: RoundingExemption | null;
}

/** A tender that does not cover what is owed: 400 on `cash_tendered_cents`. */
export class TenderTooSmallError extends DomainError {
  constructor(tendered: number, owed: number) {
    const message = `cash_tendered_cents is ${tendered} but the cash owed is ${owed}`;
    super('VALIDATION_ERROR', message, 400, [{ field: 'cash_tendered_cents', messages: [message] }]);
  }
}

/**
 * Settles a cash amount (`cash_cents` ≥ 0, the unrounded cash portion of a sale). Without a tender,
 * `rounds: change` settles as the total would: handed whole nickels, rounding the change and
 * rounding the total give the same cash total under every mode that rounds to the nickel.
 */
export function settleCash(cashCents: number, terms: CashTerms, cashTenderedCents?: number): CashSettlement {
  const settle = (total: number, exemption: RoundingExemption | null): CashSettlement => {
    const owed = exemption === 'exact_change' ? cashCents : total;
    if (cashTenderedCents !== undefined && cashTenderedCents < owed)
      throw new TenderTooSmallError(cashTenderedCents, owed);
    return {
      cash_total_cents: total,
      rounding_delta_cents: total - cashCents,
      ...(cashTenderedCents !== undefined && { change_due_cents: cashTenderedCents - total }),
      rounding_exemption: exemption,
    };
  };
  if (cashCents === 0) return settle(0, 'tender');
  if (!roundsAmounts(terms.mode)) return settle(cashCents, 'no_rule');
  if (terms.exact_change_exempt && cashTenderedCents === cashCents) return settle(cashCents, 'exact_change');
  const small = terms.small_total;
  if (small?.kind === 'exempt_up_to' && cashCents <= small.cents) return settle(cashCents, 'small_total');
  if (small?.kind === 'round_up_to_nickel' && cashCents <= 2) return settle(5, 'small_total');
  if (terms.rounds === 'change' && cashTenderedCents !== undefined) {
    if (cashTenderedCents < cashCents) throw new TenderTooSmallError(cashTenderedCents, cashCents);
    return settle(cashTenderedCents - roundCents(cashTenderedCents - cashCents, terms.mode), null);
  }
  return settle(roundCents(cashCents, terms.mode), null);
}

/**
 * The cash handed back for a refund of `refund_cents` (> 0) of a sale, under the policy of the rule the
 * sale was rounded under. `whole_sale`: the refund is of everything the sale left to refund, so mirroring
 * it hands back exactly `sale_cash_remaining_cents`.
 */
export function refundCash(
  refundCents: number,
  policy: RefundPolicy,
  mode: RoundingMode,
  {
    whole_sale: wholeSale,
    sale_cash_remaining_cents: saleCashRemainingCents,
  }: { whole_sale: boolean; sale_cash_remaining_cents: number },
): { cash_refund_cents: number; rounding_exemption: RoundingExemption | null } {
  if (policy === 'exact_amount') return { cash_refund_cents: refundCents, rounding_exemption: 'refund_policy' };
  if (policy === 'mirror_original' && wholeSale)
    return { cash_refund_cents: saleCashRemainingCents, rounding_exemption: null };
  if (!roundsAmounts(mode)) return { cash_refund_cents: refundCents, rounding_exemption: 'no_rule' };
  return { cash_refund_cents: roundCents(refundCents, mode), rounding_exemption: null };
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
  terms: CashTerms;
  /** The cash handed over for the cash leg, when the POS sends it. */
  cash_tendered_cents?: number;
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
  /** With a tender: the change handed back. */
  change_due_cents?: number;
  rounding_exemption: RoundingExemption | null;
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

function exemptionFor(tender: Exclude<TenderType, 'cash'>, amountCents: number): TenderExemption {
  const { citation, rule } = tender === 'ebt' ? EBT_RULE : NON_CASH_RULE;
  return { tender, amount_cents: amountCents, citation, rule };
}

function requireCents(value: number, field: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new TenderError('INVALID_AMOUNT', field, `${field} must be an integer number of cents`);
  }
}

function validateTenders(tenders: readonly Tender[], ledger: number): void {
  tenders.forEach((tender, i) => {
    if (!isTenderType(tender.type)) {
      throw new TenderError(
        'INVALID_TENDER',
        `tenders.${i}.type`,
        `tenders.${i}.type must be one of ${TENDER_TYPES.join(', ')}`,
      );
    }
    requireCents(tender.amount_cents, `tenders.${i}.amount_cents`);
    if (tender.amount_cents < 0) {
      throw new TenderError(
        'INVALID_AMOUNT',
        `tenders.${i}.amount_cents`,
        `tenders.${i}.amount_cents must not be negative`,
      );
    }
  });
  const sum = tenders.reduce((total, tender) => total + tender.amount_cents, 0);
  if (sum !== ledger) {
    throw new TenderError(
      'TENDER_MISMATCH',
      'tenders',
      `tenders add up to ${sum} cents but subtotal_cents + tax_total_cents is ${ledger}`,
    );
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
    throw new TenderError(
      'INVALID_TENDER',
      'payment_method',
      `payment_method must be one of ${TENDER_TYPES.join(', ')}`,
    );
  }
  const tenders = split ?? [{ type: input.payment_method, amount_cents: ledger }];

  const amountsByType = new Map<TenderType, number>();
  for (const { type, amount_cents: amountCents } of tenders)
    amountsByType.set(type, (amountsByType.get(type) ?? 0) + amountCents);

  // Several cash tenders are one cash payment: the total is rounded once.
  const cashPortion = amountsByType.get('cash') ?? 0;
  const settled = settleCash(cashPortion, input.terms, input.cash_tendered_cents);
  const delta = settled.rounding_delta_cents;
  const exemptions = [...amountsByType]
    .filter((entry): entry is [Exclude<TenderType, 'cash'>, number] => entry[0] !== 'cash')
    .map(([type, amount]) => exemptionFor(type, amount));

  return {
    ledger_total_cents: ledger,
    cash_portion_cents: cashPortion,
    cash_total_cents: split ? settled.cash_total_cents : ledger + delta,
    rounding_delta_cents: delta,
    // The amount was set by rounding: under the mode, or raised to a nickel by a small-total rule.
    rounding_applied: settled.rounding_exemption === null || delta !== 0,
    ...(settled.change_due_cents !== undefined && { change_due_cents: settled.change_due_cents }),
    rounding_exemption: settled.rounding_exemption,
    ...(exemptions.length > 0 ? { exemptions } : {}),
  };
}
