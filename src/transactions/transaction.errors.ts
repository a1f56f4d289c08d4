import { DomainError } from '../platform/errors/domain-error';

/** Also the answer for another merchant's transaction, so that ids cannot be probed. */
export class TransactionNotFoundError extends DomainError {
  constructor(transactionId: string) {
    super('NOT_FOUND', `Transaction ${transactionId} not found`, 404);
  }
}

/** Only a sale is voided, refunded or overridden; a VOID or REFUND record is final. */
export class NotASaleError extends DomainError {
  constructor(transactionId: string, type: string) {
    super(
      'NOT_A_SALE',
      `Transaction ${transactionId} is a ${type} record: only a sale can be voided, refunded or overridden`,
      409,
    );
  }
}

export class AlreadyVoidedError extends DomainError {
  constructor(transactionId: string) {
    super('ALREADY_VOIDED', `Transaction ${transactionId} has already been voided`, 409);
  }
}

/** A void or an override after money went back would reverse or reprice what the refunds already settled. */
export class AlreadyRefundedError extends DomainError {
  constructor(transactionId: string, operation: 'voided' | 'overridden') {
    super(
      'ALREADY_REFUNDED',
      `Transaction ${transactionId} has refunds and cannot be ${operation}; refund the rest instead`,
      409,
    );
  }
}

/**
 * Beyond the cash the sale settled, or, for a part, beyond the price not yet refunded: refunds that
 * hand back less cash than they take off the price (each rounded down) would otherwise empty the
 * ledger while cash is still owed.
 */
export class RefundExceedsPaidError extends DomainError {
  constructor(transactionId: string, asked: number, refundable: number, priceLeft?: number) {
    super(
      'REFUND_EXCEEDS_PAID',
      priceLeft === undefined
        ? `A refund of ${asked} cents exceeds the ${refundable} cents still refundable on transaction ${transactionId}`
        : `A partial refund of ${asked} cents exceeds the ${priceLeft} cents of the price not yet refunded on transaction ${transactionId}; refund the ${refundable} cents still refundable at once`,
      409,
    );
  }
}

/**
 * A cash refund that rounds to $0.00 hands back nothing: taking it would lower the ledger with no cash
 * moving, as often as it is sent. Refused, not counted at face value (docs/adr/0010-voids-refunds-overrides-and-receipts.md).
 */
export class RefundRoundsToZeroError extends DomainError {
  constructor(asked: number, mode: string, smallest: number, refundable: number) {
    super(
      'REFUND_ROUNDS_TO_ZERO',
      `A cash refund of ${asked} cents rounds to $0.00 under ${mode}: refund at least ${smallest} cents, or the ${refundable} cents still refundable at once`,
      422,
    );
  }
}

export const VOID_POLICIES = ['time_limit', 'amount_threshold', 'reason'] as const;
export type VoidPolicyName = (typeof VOID_POLICIES)[number];

export interface PolicyViolation {
  policy: VoidPolicyName;
  why: string;
}

/** Names every policy the void breaks, so that the POS learns all it must do in one answer. */
export class VoidPolicyViolationError extends DomainError {
  constructor(readonly violations: PolicyViolation[]) {
    super(
      'VOID_POLICY_VIOLATION',
      `Void refused by the ${violations.map(({ policy, why }) => `${policy} policy (${why})`).join(' and the ')}`,
      422,
    );
  }
}

/** docs/design.md "Overrides are bounded": an override moves the cash total, not the price. */
export class OverridePolicyViolationError extends DomainError {
  constructor(reason: string, newCashTotal: number, low: number, high: number) {
    super(
      'OVERRIDE_POLICY_VIOLATION',
      `A ${reason} override must set the cash total between ${low} and ${high} cents; ${newCashTotal} is outside (an override moves the cash total, not the price)`,
      422,
    );
  }
}

/** For the documentation of the routes: the errors every override, void and refund may answer, beside their own. */
export const TRANSACTION_NOT_FOUND_DOC = { NOT_FOUND: "No transaction has this id, or it is another merchant's" };
export const SALE_CHANGE_ERRORS = {
  404: TRANSACTION_NOT_FOUND_DOC,
  409: {
    NOT_A_SALE: 'The transaction is a VOID or REFUND record: only a sale can be overridden, voided or refunded',
    CONCURRENT_MODIFICATION:
      'The sale kept changing while the request was decided (other requests on it at the same time); retry',
  },
};
