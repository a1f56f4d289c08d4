import { centsToDollarsString } from '../../rules/money';
import type { JurisdictionRule } from '../../rules/jurisdiction-rule';
import type { RoundingMode, TenderType } from '../../rules/rounding-engine';
import type { TransactionDetail, TransactionView } from '../transaction.response.dto';
import { Disclosure, MerchantReceipt, PosReceipt } from './get-receipt.response.dto';

/** Receipts are renderings of the transaction detail: pure, with no state of their own. */
export const RECEIPT_FORMATS = ['merchant', 'audit', 'pos'] as const;
export type ReceiptFormat = (typeof RECEIPT_FORMATS)[number];

export type Receipt =
  | { format: 'merchant'; receipt: MerchantReceipt }
  | { format: 'audit'; receipt: TransactionDetail }
  | { format: 'pos'; receipt: PosReceipt };

export function receipt(format: ReceiptFormat, transaction: TransactionDetail): Receipt {
  switch (format) {
    case 'merchant':
      return { format, receipt: merchantReceipt(transaction) };
    case 'audit':
      // The full record: chain position, audit hash, fraud score and the entries of its history.
      return { format, receipt: transaction };
    case 'pos': {
      const {
        subtotal_cents: subtotalCents,
        tax_total_cents: taxTotalCents,
        ledger_total_cents: ledgerTotalCents,
        cash_total_cents: cashTotalCents,
        rounding_delta_cents: roundingDeltaCents,
      } = transaction.calculation;
      return {
        format,
        receipt: {
          transaction_id: transaction.id,
          subtotal_cents: subtotalCents,
          tax_total_cents: taxTotalCents,
          ledger_total_cents: ledgerTotalCents,
          cash_total_cents: cashTotalCents,
          rounding_delta_cents: roundingDeltaCents,
        },
      };
    }
  }
}

const HOW: Record<RoundingMode, string | null> = {
  swedish_rounding: 'to the nearest 5 cents',
  symmetrical_rounding: 'to the nearest 5 cents',
  nearest_nickel: 'to the nearest 5 cents',
  mandatory_round_down: 'down to a multiple of 5 cents',
  mandatory_round_up: 'up to a multiple of 5 cents',
  nearest_dime: 'to the nearest 10 cents',
  nearest_cent: null,
  none: null,
};

/**
 * The rule's own disclosure text when it prescribes one (seeds/SOURCES.md: none of the seed rules
 * does yet; an administrator records it); otherwise a sentence saying how cash was rounded and on
 * what authority. The legislation is given beside the text, not in it: its citation is for the
 * merchant, the sentence for the customer.
 */
export function roundingDisclosure(rule: JurisdictionRule, calculation: TransactionView['calculation']): Disclosure {
  // A rule recorded before version 2 has no `disclosure`: its kind follows disclosure_required.
  const { kind, itemized } = rule.disclosure ?? {
    kind: rule.disclosure_required ? 'receipt' : 'none',
    itemized: false,
  };
  const about = {
    required: rule.disclosure_required,
    kind,
    itemized,
    jurisdiction_id: rule.jurisdiction_id,
    legislation: rule.legislation,
  };
  if (rule.disclosure_text) return { text: rule.disclosure_text, source: 'jurisdiction', ...about };
  return { text: defaultDisclosure(rule, calculation), source: 'default', ...about };
}

function defaultDisclosure(rule: JurisdictionRule, calculation: TransactionView['calculation']): string {
  const how = HOW[calculation.cash_rounding_mode];
  if (how === null) return 'Cash totals are not rounded: cash pays the exact amount.';
  const applied = calculation.rounding_applied
    ? 'Card, EBT and mobile payments are never rounded.'
    : 'This payment was not in cash and was not rounded.';
  if (calculation.rounding_policy.applied === 'favor_customer')
    return `Cash totals are rounded down to a multiple of 5 cents, in the customer’s favour. ${applied}`;
  return `Cash totals are rounded ${how}${authority(rule)}. ${applied}`;
}

/**
 * On what authority, claiming no more than the rule's source: the law only for an enacted rule read
 * in the law's own text (statute or regulation), guidance as guidance, nothing for a rule whose
 * enactment is unconfirmed. No federal law or agency prescribes a method to merchants: where no
 * state or local rule applies, the rounding is this service's default and the receipt says so.
 */
function authority(rule: JurisdictionRule): string {
  if (rule.jurisdiction_level === 'federal')
    return ', this service’s default where no state or local law sets a method';
  if (rule.confidence === 'low' || rule.status !== 'enacted') return '';
  const place = [rule.city ?? rule.county, rule.state].filter(Boolean).join(', ');
  const level = rule.jurisdiction_level === 'state' ? 'state' : 'local';
  if (rule.source_kind === 'statute' || rule.source_kind === 'regulation')
    return `, as ${rule.enforcement === 'mandatory' ? 'required' : 'permitted'} by ${level} law in ${place}`;
  if (rule.source_kind === 'agency_guidance') return `, following ${level} agency guidance in ${place}`;
  return '';
}

const TENDER_LABELS: Record<TenderType, string> = { cash: 'Cash', card: 'Card', ebt: 'EBT', mobile: 'Mobile' };

/** Why cash was not rounded, where the customer would otherwise wonder. */
const EXEMPTION_LINES: Record<string, string> = {
  exact_change: 'Exact change: not rounded',
  small_total: 'Small total: rounded as the law sets',
  refund_policy: 'Refunded in the exact amount',
};

const dollars = (cents: number) => `${cents < 0 ? '-' : ''}$${centsToDollarsString(Math.abs(cents))}`;
const signed = (cents: number) => `${cents > 0 ? '+' : ''}${dollars(cents)}`;
const row = (label: string, amount: string) => `${label.padEnd(24)}${amount.padStart(14)}`;

function merchantReceipt(transaction: TransactionDetail): MerchantReceipt {
  const { calculation, original_calculation: calculated } = transaction;
  const disclosure = roundingDisclosure(transaction.rule, calculation);
  const heading = transaction.original_transaction_id
    ? `${transaction.type} ${transaction.id} of ${transaction.original_transaction_id}`
    : `${transaction.type} ${transaction.id}`;
  const place = [
    transaction.store_id && `Store ${transaction.store_id}`,
    transaction.terminal_id && `Terminal ${transaction.terminal_id}`,
  ]
    .filter(Boolean)
    .join('  ');
  const lines = [
    heading,
    transaction.created_at,
    ...(place ? [place] : []),
    row('Subtotal', dollars(calculation.subtotal_cents)),
    row('Tax', dollars(calculation.tax_total_cents)),
    row('Total', dollars(calculation.ledger_total_cents)),
    ...calculation.tenders.map((tender) =>
      row(`${TENDER_LABELS[tender.type]}${tender.rounded ? '' : ' (not rounded)'}`, dollars(tender.amount_cents)),
    ),
    ...(calculated
      ? [
          row('Cash rounding', signed(calculated.rounding_delta_cents)),
          row('Adjusted by employee', signed(calculation.cash_total_cents - calculated.cash_total_cents)),
        ]
      : calculation.rounding_applied || (disclosure.itemized && calculation.cash_portion_cents !== 0)
        ? [row('Cash rounding', signed(calculation.rounding_delta_cents))]
        : []),
    ...(EXEMPTION_LINES[calculation.rounding_exemption ?? '']
      ? [EXEMPTION_LINES[calculation.rounding_exemption ?? '']]
      : []),
    row(calculation.rounding_applied ? 'Cash total' : 'Amount', dollars(calculation.cash_total_cents)),
    ...(calculation.cash_tendered_cents !== null && calculation.change_due_cents !== null
      ? [
          row('Cash tendered', dollars(calculation.cash_tendered_cents)),
          row('Change', dollars(calculation.change_due_cents)),
        ]
      : []),
    ...(transaction.state === 'completed' ? [] : [`Status: ${transaction.state.replace('_', ' ').toUpperCase()}`]),
    '',
    disclosure.text,
  ];
  return {
    transaction_id: transaction.id,
    type: transaction.type,
    state: transaction.state,
    created_at: transaction.created_at,
    disclosure,
    text: lines.join('\n'),
  };
}
