import { randomInt } from 'node:crypto';
import { RevisionConflictError } from './event-store/event-store.errors';

/** Crockford's base32: no I, L, O or U, so an id read off a receipt or a pay slip cannot be mistyped into another. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_LENGTH = 8;

/** `PREFIX-YYYY-MM-DD-XXXXXXXX`, the shape of the spec's transaction ids, for every record of the service. */
export function newRecordId(prefix: string, at: Date): string {
  const random = Array.from({ length: RANDOM_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${prefix}-${at.toISOString().slice(0, 10)}-${random}`;
}

/** Any 8 upper-case letters or digits are accepted back. */
export const recordIdPattern = (prefix: string) => new RegExp(`^${prefix}-\\d{4}-\\d{2}-\\d{2}-[0-9A-Z]{8}$`);

/**
 * The log already holds another record under a freshly drawn id: for a record with no stream of its
 * own (a VOID or REFUND, appended to its sale's), found by the append's own check.
 */
export class RecordIdTakenError extends Error {
  constructor(readonly recordId: string) {
    super(`Record id ${recordId} is already taken`);
  }
}

/** 32^8 ids a day make a clash rare, but possible on a busy day. */
const ATTEMPTS = 3;

/**
 * Runs `record` with a new id, and again with another when the id turned out to be taken: by a
 * stream (a revision conflict on a fresh stream's expected revision 0) or by a record without a stream of its own.
 */
export async function withNewRecordId<T>(prefix: string, at: Date, record: (id: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await record(newRecordId(prefix, at));
    } catch (error) {
      const taken = error instanceof RevisionConflictError || error instanceof RecordIdTakenError;
      if (!taken || attempt === ATTEMPTS) throw error;
    }
  }
}
