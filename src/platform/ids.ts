import { randomInt } from 'node:crypto';

/** Crockford's base32: no I, L, O or U, so an id read off a receipt or a pay slip cannot be mistyped into another. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_LENGTH = 8;

/** `PREFIX-YYYY-MM-DD-XXXXXXXX`, the shape of the spec's transaction ids, for the service's other records. */
export function newRecordId(prefix: string, at: Date): string {
  const random = Array.from({ length: RANDOM_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${prefix}-${at.toISOString().slice(0, 10)}-${random}`;
}

export const recordIdPattern = (prefix: string) => new RegExp(`^${prefix}-\\d{4}-\\d{2}-\\d{2}-[0-9A-Z]{8}$`);
