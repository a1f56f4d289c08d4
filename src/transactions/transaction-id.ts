import { randomInt } from 'node:crypto';
import { RevisionConflictError } from '../event-store/event-store.errors';

/** Crockford's base32: no I, L, O or U, so an id read off a receipt cannot be mistyped into another. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_LENGTH = 8;

/** The spec's `TXN-YYYY-MM-DD-XXXXXXXX`; any 8 upper-case letters or digits are accepted back. */
export const TRANSACTION_ID_PATTERN = /^TXN-\d{4}-\d{2}-\d{2}-[0-9A-Z]{8}$/;

function newId(prefix: string, at: Date): string {
  const random = Array.from({ length: RANDOM_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${prefix}-${at.toISOString().slice(0, 10)}-${random}`;
}

/** The date is the record's UTC date; 32^8 ids a day make a clash rare, and withNewTransactionId retries one. */
export const newTransactionId = (at: Date) => newId('TXN', at);

/** An override is a record of its own, not a transaction: `OVR-YYYY-MM-DD-XXXXXXXX`. */
export const newOverrideId = (at: Date) => newId('OVR', at);

/**
 * The read model already holds another record under a freshly drawn id. A VOID or REFUND record
 * has no stream of its own (it is appended to its sale's), so only the read model can tell.
 */
export class TransactionIdTakenError extends Error {
  constructor(readonly transactionId: string) {
    super(`Transaction id ${transactionId} is already taken`);
  }
}

/** A clash of random ids is rare but possible on a busy day. */
const ATTEMPTS = 3;

/**
 * Runs `record` with a new id, and again with another when the id turned out to be taken: by the
 * stream of a sale (a revision conflict on its expected revision 0) or by a record in the read model.
 */
export async function withNewTransactionId<T>(at: Date, record: (transactionId: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await record(newTransactionId(at));
    } catch (error) {
      const taken = error instanceof RevisionConflictError || error instanceof TransactionIdTakenError;
      if (!taken || attempt === ATTEMPTS) throw error;
    }
  }
}
