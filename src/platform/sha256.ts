import { createHash } from 'node:crypto';

/** SHA-256 of the parts in order, strings as UTF-8: the one hash of the service (chain, tree, keys, fingerprints). */
export function sha256(...parts: (string | Uint8Array)[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** The same, as lowercase hex. */
export const sha256Hex = (...parts: (string | Uint8Array)[]): string => sha256(...parts).toString('hex');
