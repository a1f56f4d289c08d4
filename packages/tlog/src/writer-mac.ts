import { createHmac, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * Writer authentication (docs/design.md "Tamper evidence against whoever runs the database"): every
 * entry a service process appends carries an HMAC-SHA256 of its chain hash (which covers every field
 * of the entry, its position included) under a key that never enters the database. Whoever runs the
 * database can write a well-formed, correctly hashed and linked entry, but not its authenticator, so
 * a row inserted or rewritten by SQL is caught by any verifier holding the key. The key is derived
 * from the checkpoint signing key, which every service process on one log already shares and keeps
 * outside the database: no second secret to distribute. Pure (node:crypto only): the offline verifier uses it too.
 */
export function writerKey(signingKey: KeyObject): Buffer {
  const material = signingKey.export({ format: 'der', type: 'pkcs8' });
  return Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'crcs writer authentication v1', 32));
}

/** The authenticator of the entry with chain hash `hash`, as lowercase hex. */
export const writerMac = (key: Buffer, hash: string): string => createHmac('sha256', key).update(hash).digest('hex');

/**
 * The entry from which every entry must carry a valid authenticator: the boundary is a log entry
 * itself (its own position), so it is hashed, linked and covered by every signed checkpoint and
 * export after it. Whoever runs the database cannot move it or switch authentication off by
 * clearing `writer_mac`: the boundary stays where it was, and the entries after it without a
 * valid authenticator are breaks. A service with a signing key appends it at its first start
 * (or the first start after a log was made without one), before anything else.
 */
export const WRITER_AUTHENTICATION_EVENT_TYPE = 'WriterAuthenticationRequired';
export const WRITER_AUTHENTICATION_STREAM = 'writerAuthentication';
/** What the boundary entry records: how its authenticators are made, for a reader of the log. */
export const WRITER_AUTHENTICATION_SCHEME =
  'hmac-sha256 of the chain hash, key hkdf-sha256 of the checkpoint signing key';

/**
 * Checks entries' authenticators in chain order. From the boundary on (the first
 * `WriterAuthenticationRequired` entry, or `requiredFrom` when checking a range that starts after
 * it) every entry must carry a valid one, whatever the other rows carry; before it, an entry
 * without one was written before writer authentication existed, and one that carries an
 * authenticator must still carry a valid one.
 */
export class WriterCheck {
  constructor(
    private readonly key: Buffer,
    private requiredFrom?: number,
  ) {}

  /** Why the entry is not authenticated, or undefined when it is (or is from before the boundary). */
  problem(position: number, type: string, hash: string, mac: string | null | undefined): string | undefined {
    if (type === WRITER_AUTHENTICATION_EVENT_TYPE && this.requiredFrom === undefined) this.requiredFrom = position;
    if (mac === null || mac === undefined || mac === '') {
      return this.requiredFrom !== undefined && position >= this.requiredFrom
        ? `the entry at position ${position} carries no writer authenticator, but every entry from position ${this.requiredFrom} must: no service process wrote it`
        : undefined;
    }
    const expected = Buffer.from(writerMac(this.key, hash), 'hex');
    const given = Buffer.from(mac, 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
    return `the entry at position ${position} carries a writer authenticator that does not verify: no service process wrote it as it is`;
  }
}
