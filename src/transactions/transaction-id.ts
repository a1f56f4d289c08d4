import { randomInt } from 'node:crypto';

/** Crockford's base32: no I, L, O or U, so an id read off a receipt cannot be mistyped into another. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_LENGTH = 8;

/** The spec's `TXN-YYYY-MM-DD-XXXXXXXX`; any 8 upper-case letters or digits are accepted back. */
export const TRANSACTION_ID_PATTERN = /^TXN-\d{4}-\d{2}-\d{2}-[0-9A-Z]{8}$/;

/** The date is the sale's UTC date; 32^8 ids a day make a clash rare, and the append's expected revision catches one. */
export function newTransactionId(at: Date): string {
  const random = Array.from({ length: RANDOM_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `TXN-${at.toISOString().slice(0, 10)}-${random}`;
}
