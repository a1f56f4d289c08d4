import { hash } from 'node:crypto';

/**
 * SHA-256 of the parts in order, strings as UTF-8: the one hash of the service (chain, tree, keys,
 * fingerprints). One-shot `crypto.hash`: a verification runs it a few million times, and it costs
 * about half of a `createHash` object per call.
 */
export function sha256(...parts: (string | Uint8Array)[]): Buffer {
  const input =
    parts.length === 1
      ? parts[0]
      : Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
  return hash('sha256', input, 'buffer');
}

/** The same, as lowercase hex. */
export const sha256Hex = (...parts: (string | Uint8Array)[]): string =>
  parts.length === 1 && typeof parts[0] === 'string'
    ? hash('sha256', parts[0], 'hex')
    : sha256(...parts).toString('hex');
