import { createHash } from 'node:crypto';

/*
 * RFC 9162 (Certificate Transparency 2.0), section 2.1, written from the RFC's text for the tests
 * and sharing nothing with packages/tlog/src/merkle-tree.ts: MTH by its recursive definition, and
 * the verification algorithms of 2.1.3.2 and 2.1.4.2 step by step, with the RFC's variable names.
 */

const HASH = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** k: the largest power of two smaller than n (n > 1). */
function largestPowerOfTwoBelow(n: number): number {
  return 2 ** Math.ceil(Math.log2(n) - 1);
}

const isSet = (x: number): boolean => x % 2 === 1;
const shift = (x: number): number => Math.floor(x / 2);

export const rfc9162 = {
  leafHash: (input: Buffer): Buffer => HASH(Buffer.from([0x00]), input),

  /** 2.1.1: MTH(D[n]) of the leaf inputs (`d`, the RFC's D). */
  mth(d: Buffer[]): Buffer {
    const n = d.length;
    if (n === 0) return HASH();
    if (n === 1) return HASH(Buffer.from([0x00]), d[0]);
    const k = largestPowerOfTwoBelow(n);
    return HASH(Buffer.from([0x01]), rfc9162.mth(d.slice(0, k)), rfc9162.mth(d.slice(k)));
  },

  /** 2.1.3.2: verifying an inclusion proof. `hash` is the leaf hash. */
  verifyInclusion(
    leafIndex: number,
    treeSize: number,
    hash: Buffer,
    inclusionPath: Buffer[],
    rootHash: Buffer,
  ): boolean {
    if (leafIndex >= treeSize) return false;
    let fn = leafIndex;
    let sn = treeSize - 1;
    let r = hash;
    for (const p of inclusionPath) {
      if (sn === 0) return false;
      if (isSet(fn) || fn === sn) {
        r = HASH(Buffer.from([0x01]), p, r);
        if (!isSet(fn)) {
          while (!(isSet(fn) || fn === 0)) {
            fn = shift(fn);
            sn = shift(sn);
          }
        }
      } else {
        r = HASH(Buffer.from([0x01]), r, p);
      }
      fn = shift(fn);
      sn = shift(sn);
    }
    return sn === 0 && r.equals(rootHash);
  },

  /** 2.1.4.2: verifying consistency between two tree heads (first == second: the proof is empty). */
  verifyConsistency(
    first: number,
    second: number,
    consistencyPath: Buffer[],
    firstHash: Buffer,
    secondHash: Buffer,
  ): boolean {
    if (first === second) return consistencyPath.length === 0 && firstHash.equals(secondHash);
    if (first > second || first === 0) return false;
    if (consistencyPath.length === 0) return false;
    const path = Number.isInteger(Math.log2(first)) ? [firstHash, ...consistencyPath] : [...consistencyPath];
    let fn = first - 1;
    let sn = second - 1;
    while (isSet(fn)) {
      fn = shift(fn);
      sn = shift(sn);
    }
    let fr = path[0];
    let sr = path[0];
    for (const c of path.slice(1)) {
      if (sn === 0) return false;
      if (isSet(fn) || fn === sn) {
        fr = HASH(Buffer.from([0x01]), c, fr);
        sr = HASH(Buffer.from([0x01]), c, sr);
        if (!isSet(fn)) {
          while (!(isSet(fn) || fn === 0)) {
            fn = shift(fn);
            sn = shift(sn);
          }
        }
      } else {
        sr = HASH(Buffer.from([0x01]), sr, c);
      }
      fn = shift(fn);
      sn = shift(sn);
    }
    return fr.equals(firstHash) && sr.equals(secondHash) && sn === 0;
  },
};
