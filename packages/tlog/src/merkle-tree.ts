import { sha256 } from './sha256';

/*
 * The Merkle tree of RFC 9162 (section 2.1) over the hash chain: leaf i is the entry at position
 * i + 1, its input the 32 bytes of the entry's chain hash. Pure (node:crypto only): the service,
 * the signer and the offline verifier share it.
 *
 * The tree is stored as its full subtrees: node (level, index) is the root of the 2^level leaves
 * from index * 2^level. Every subtree a proof for any tree size needs is full or is the right edge
 * of that size, which is made of at most log2(n) full ones, so a proof reads O(log n) nodes and
 * appending a leaf writes the nodes it completes (two on average).
 */

export const HASH_BYTES = 32;

/** MTH({}): the hash of the empty string. */
export const EMPTY_ROOT = sha256();

/** One input buffer for every leaf (its first byte the leaf prefix, 0): the threads of a verification hash one per entry. */
const leafInput = Buffer.alloc(1 + HASH_BYTES);

export function leafHash(chainHash: string): Buffer {
  // A chain hash of another shape (in a tampered log) is decoded as Buffer.from decodes it.
  if (chainHash.length !== 2 * HASH_BYTES || leafInput.write(chainHash, 1, 'hex') !== HASH_BYTES)
    return sha256(Buffer.of(0), Buffer.from(chainHash, 'hex'));
  return sha256(leafInput);
}

/** One input buffer for every node: a verification hashes about one node per entry. */
const nodeInput = Buffer.alloc(1 + 2 * HASH_BYTES, 1);

export function nodeHash(left: Buffer, right: Buffer): Buffer {
  // A proof's path comes from outside and may be of any length.
  if (left.length !== HASH_BYTES || right.length !== HASH_BYTES) return sha256(Buffer.of(1), left, right);
  left.copy(nodeInput, 1);
  right.copy(nodeInput, 1 + HASH_BYTES);
  return sha256(nodeInput);
}

export interface NodeKey {
  level: number;
  index: number;
}

export interface TreeNode extends NodeKey {
  hash: Buffer;
}

/** A full subtree's root, as stored. */
export type NodeLookup = (level: number, index: number) => Buffer;

/** The largest power of two below n (n >= 2): where RFC 9162 splits a tree of n leaves. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[start:end]) from full subtrees; `start` is aligned as every subtree of a proof is. */
function subtreeRoot(start: number, end: number, node: NodeLookup): Buffer {
  const size = end - start;
  if (size === 0) return EMPTY_ROOT;
  const k = split(size);
  if (size === 1 || (k * 2 === size && start % size === 0)) return node(Math.log2(size), start / size);
  return nodeHash(subtreeRoot(start, start + k, node), subtreeRoot(start + k, end, node));
}

export const treeRoot = (size: number, node: NodeLookup): Buffer => subtreeRoot(0, size, node);

/** PATH(m, D[n]) of RFC 9162 2.1.3.1, the leaf's sibling first. */
export function inclusionPath(index: number, size: number, node: NodeLookup): Buffer[] {
  const path = (m: number, start: number, end: number): Buffer[] => {
    if (end - start === 1) return [];
    const k = split(end - start);
    return m < k
      ? [...path(m, start, start + k), subtreeRoot(start + k, end, node)]
      : [...path(m - k, start + k, end), subtreeRoot(start, start + k, node)];
  };
  return path(index, 0, size);
}

/** PROOF(m, D[n]) of RFC 9162 2.1.4.1: SUBPROOF(m, D[n], true). */
export function consistencyPath(first: number, second: number, node: NodeLookup): Buffer[] {
  const subproof = (m: number, start: number, end: number, whole: boolean): Buffer[] => {
    if (m === end - start) return whole ? [] : [subtreeRoot(start, end, node)];
    const k = split(end - start);
    return m <= k
      ? [...subproof(m, start, start + k, whole), subtreeRoot(start + k, end, node)]
      : [...subproof(m - k, start + k, end, false), subtreeRoot(start, start + k, node)];
  };
  return first === 0 || first === second ? [] : subproof(first, 0, second, true);
}

/**
 * Runs `build` twice: first to learn which nodes it reads, then, once `fetch` has them (one round
 * trip to the database), for real. A node `fetch` does not return is a tree that does not reach
 * that far: it throws.
 */
export async function withNodes<T>(
  build: (node: NodeLookup) => T,
  fetch: (keys: NodeKey[]) => Promise<TreeNode[]>,
): Promise<T> {
  const wanted = new Map<string, NodeKey>();
  build((level, index) => {
    wanted.set(`${level}/${index}`, { level, index });
    return EMPTY_ROOT;
  });
  const found = new Map((await fetch([...wanted.values()])).map((n) => [`${n.level}/${n.index}`, n.hash]));
  return build((level, index) => {
    const hash = found.get(`${level}/${index}`);
    if (!hash) throw new Error(`the tree has no node ${level}/${index}`);
    return hash;
  });
}

/**
 * For a thread that hashes the leaves of a batch, the inner nodes to hash with them: for each leaf
 * j (of `leaves`, 32 bytes each), the roots of the full subtrees over it and the 1, 3, 7... leaves
 * before it in the batch, level 1 first, `counts[j]` of them. Such a root does not depend on where
 * the leaves stand in the tree, so `grow` takes it whenever the leaves were appended in a row; the
 * levels computed are those a tree with leaf j at `indexOf(j)` completes there, within the run of
 * consecutive indices around it, so a batch taken where its guess holds costs the tree no hashing.
 */
export function runNodes(leaves: Uint8Array, indexOf: (j: number) => number): { nodes: Buffer; counts: Uint8Array } {
  const count = leaves.length / HASH_BYTES;
  const counts = new Uint8Array(count);
  const nodes: Buffer[] = [];
  // The last left child at each level, and where the current run of consecutive indices started.
  const left: Buffer[] = [];
  let start = 0;
  for (let j = 0; j < count; j++) {
    const index = indexOf(j);
    if (j === 0 || index !== indexOf(j - 1) + 1) start = index;
    let hash = Buffer.from(leaves.buffer, leaves.byteOffset + j * HASH_BYTES, HASH_BYTES);
    let level = 0;
    // A right child (its bit set), whose left sibling is in the run.
    while (Math.floor(index / 2 ** level) % 2 === 1 && index + 1 - 2 ** (level + 1) >= start) {
      hash = nodeHash(left[level], hash);
      nodes.push(hash);
      level += 1;
    }
    left[level] = hash;
    counts[j] = level;
  }
  return { nodes: Buffer.concat(nodes), counts };
}

/**
 * The right edge of the tree: one full subtree per set bit of its size. Appending a leaf joins
 * equal subtrees as binary addition carries, and says which nodes that completed.
 */
export class MerkleFrontier {
  private constructor(
    /** Peaks by level, undefined where the size's bit is clear. */
    private readonly peaks: (Buffer | undefined)[],
    private count: number,
  ) {}

  static empty(): MerkleFrontier {
    return new MerkleFrontier([], 0);
  }

  /** The nodes that `of` reads. */
  static keys(size: number): NodeKey[] {
    const keys: NodeKey[] = [];
    let start = 0;
    for (let level = Math.floor(Math.log2(size)); size > 0 && level >= 0; level--) {
      const width = 2 ** level;
      if (size - start < width) continue;
      keys.push({ level, index: start / width });
      start += width;
    }
    return keys;
  }

  static of(size: number, node: NodeLookup): MerkleFrontier {
    const peaks: (Buffer | undefined)[] = [];
    for (const { level, index } of MerkleFrontier.keys(size)) peaks[level] = node(level, index);
    return new MerkleFrontier(peaks, size);
  }

  get size(): number {
    return this.count;
  }

  append(leaf: Buffer): TreeNode[] {
    const written: TreeNode[] = [{ level: 0, index: this.count, hash: leaf }];
    this.carry(leaf, undefined, written);
    return written;
  }

  /**
   * `append` for a caller that keeps no nodes (a verifier: one per entry, a million times).
   * `known`: the nodes this leaf completes, from level 1 up, as `runNodes` gives them, when the
   * caller has them; any level they do not reach is hashed here.
   */
  grow(leaf: Buffer, known?: Buffer): void {
    this.carry(leaf, known, undefined);
  }

  private carry(leaf: Buffer, known: Buffer | undefined, written: TreeNode[] | undefined): void {
    let hash = leaf;
    let level = 0;
    let index = this.count;
    while (this.peaks[level]) {
      hash =
        known && known.length >= (level + 1) * HASH_BYTES
          ? known.subarray(level * HASH_BYTES, (level + 1) * HASH_BYTES)
          : nodeHash(this.peaks[level]!, hash);
      this.peaks[level] = undefined;
      level += 1;
      index = Math.floor(index / 2);
      written?.push({ level, index, hash });
    }
    this.peaks[level] = hash;
    this.count += 1;
  }

  root(): Buffer {
    let root: Buffer | undefined;
    for (const peak of this.peaks) if (peak) root = root ? nodeHash(peak, root) : peak;
    return root ?? EMPTY_ROOT;
  }

  copy(): MerkleFrontier {
    return new MerkleFrontier([...this.peaks], this.count);
  }

  /** Its size and peaks by level: what another thread, given them, rebuilds it from with `of`. */
  state(): { size: number; peaks: (Buffer | undefined)[] } {
    return { size: this.count, peaks: [...this.peaks] };
  }
}

/*
 * Proof checks. They rebuild the root(s) the way the proof was made (RFC 9162 2.1.3.1 and
 * 2.1.4.1), consuming the proof from its end (the top of the tree); the tests check them against
 * the RFC's own iterative verification algorithms (2.1.3.2, 2.1.4.2), written separately.
 */

/** Whether `path` proves leaf `index` of a tree of `size` leaves, with root `root`. */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Buffer,
  path: readonly Buffer[],
  root: Buffer,
): boolean {
  if (!(index >= 0 && index < size)) return false;
  const rest = [...path];
  const rebuild = (m: number, n: number): Buffer | undefined => {
    if (n === 1) return leaf;
    const k = split(n);
    const sibling = rest.pop();
    if (!sibling) return undefined;
    const below = m < k ? rebuild(m, k) : rebuild(m - k, n - k);
    if (!below) return undefined;
    return m < k ? nodeHash(below, sibling) : nodeHash(sibling, below);
  };
  const rebuilt = rebuild(index, size);
  return rest.length === 0 && rebuilt !== undefined && rebuilt.equals(root);
}

/** Whether `proof` shows that the tree of `first` leaves with `firstRoot` is a prefix of the one of `second` with `secondRoot`. */
export function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Buffer[],
  firstRoot: Buffer,
  secondRoot: Buffer,
): boolean {
  if (!(first >= 0 && first <= second)) return false;
  if (first === 0) return proof.length === 0 && firstRoot.equals(EMPTY_ROOT);
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  const rest = [...proof];
  /** The old and new roots of D[n] (the old one covering its first m leaves); `whole`: D[m] is the old tree itself. */
  const rebuild = (m: number, n: number, whole: boolean): { before: Buffer; after: Buffer } | undefined => {
    if (m === n) {
      if (whole) return { before: firstRoot, after: firstRoot };
      const top = rest.pop();
      return top && { before: top, after: top };
    }
    const k = split(n);
    const sibling = rest.pop();
    if (!sibling) return undefined;
    if (m <= k) {
      const left = rebuild(m, k, whole);
      return left && { before: left.before, after: nodeHash(left.after, sibling) };
    }
    const right = rebuild(m - k, n - k, false);
    return right && { before: nodeHash(sibling, right.before), after: nodeHash(sibling, right.after) };
  };
  const roots = rebuild(first, second, true);
  return rest.length === 0 && roots !== undefined && roots.before.equals(firstRoot) && roots.after.equals(secondRoot);
}
