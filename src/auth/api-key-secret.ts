import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@crcs/tlog';
import type { Role } from '../platform/identity/principal';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 62 below 256: bytes from here up are dropped so that every character is equally likely. */
const UNBIASED_BYTE_LIMIT = 248;
const SECRET_LENGTH = 32;

/** What an issued key looks like; anything else is refused before the database is asked. */
export const ISSUED_KEY_FORMAT = /^svc_(?:partner_)?[0-9A-Za-z]{32}$/;

/** Uniform base62 characters from the system CSPRNG. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_BYTE_LIMIT && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A new raw key: `svc_partner_` + 32 base62 characters for partners, `svc_` + 32 for every other role. */
export function generateApiKey(role: Role): string {
  return `${role === 'partner' ? 'svc_partner_' : 'svc_'}${randomBase62(SECRET_LENGTH)}`;
}

/** SHA-256, lowercase hex: the only form of a key that is ever stored. */
export function hashApiKey(raw: string): string {
  return sha256Hex(raw);
}

export function newApiKeyId(): string {
  return `key_${randomBase62(20)}`;
}
