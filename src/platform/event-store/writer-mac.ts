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
 * Checks entries' authenticators in chain order. Entries before the first one that carries an
 * authenticator were written before writer authentication existed (or by a service without a
 * signing key) and are taken as they are; from the first on, every entry must carry a valid one.
 */
export class WriterCheck {
  /** `authenticated`: the entry before the first checked carries an authenticator, so every one checked must too. */
  constructor(
    private readonly key: Buffer,
    private authenticated = false,
  ) {}

  /** Why the entry is not authenticated, or undefined when it is (or is from before authentication). */
  problem(position: number, hash: string, mac: string | null | undefined): string | undefined {
    if (mac === null || mac === undefined || mac === '') {
      return this.authenticated
        ? `the entry at position ${position} carries no writer authenticator: no service process wrote it`
        : undefined;
    }
    this.authenticated = true;
    const expected = Buffer.from(writerMac(this.key, hash), 'hex');
    const given = Buffer.from(mac, 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
    return `the entry at position ${position} carries a writer authenticator that does not verify: no service process wrote it as it is`;
  }
}
