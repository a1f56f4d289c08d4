import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  MerkleFrontier,
  consistencyPath,
  inclusionPath,
  leafHash,
  runNodes,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
  type NodeLookup,
} from './merkle-tree';
import { rfc9162 } from '../test/rfc9162';

/** A tree of `size` leaves built by appending, its nodes kept as the service stores them. */
function grow(size: number): { chainHashes: string[]; node: NodeLookup; frontier: MerkleFrontier } {
  const nodes = new Map<string, Buffer>();
  const frontier = MerkleFrontier.empty();
  const chainHashes: string[] = [];
  for (let i = 0; i < size; i++) {
    const chainHash = createHash('sha256').update(`entry ${i}`).digest('hex');
    chainHashes.push(chainHash);
    for (const n of frontier.append(leafHash(chainHash))) nodes.set(`${n.level}/${n.index}`, n.hash);
  }
  const node: NodeLookup = (level, index) => {
    const hash = nodes.get(`${level}/${index}`);
    if (!hash) throw new Error(`no node ${level}/${index}`);
    return hash;
  };
  return { chainHashes, node, frontier };
}

const SIZES = Array.from({ length: 64 }, (_, i) => i + 1);
const full = grow(64);
const leafInputs = full.chainHashes.map((h) => Buffer.from(h, 'hex'));
/** MTH of the first n leaves, for n from 0 to 64: each the RFC's recursive definition, computed once rather than in every check that needs it. */
const mthOf = Array.from({ length: 65 }, (_, n) => rfc9162.mth(leafInputs.slice(0, n)));
/** At i: MTH of the first i leaves and a forged one after them, the first tree of i + 1 leaves a rewritten log would claim. */
const forgedMthOf = Array.from({ length: 64 }, (_, i) => rfc9162.mth([...leafInputs.slice(0, i), Buffer.alloc(32, 7)]));

describe('Merkle tree (RFC 9162 2.1), checked by the RFC’s own algorithms written in packages/tlog/test/rfc9162.ts', () => {
  it('the empty tree’s root is the hash of nothing', () => {
    expect(treeRoot(0, full.node).toString('hex')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(MerkleFrontier.empty().root()).toEqual(mthOf[0]);
  });

  it.each(SIZES)('size %i: the root from stored nodes and from the frontier is MTH of the leaves', (size) => {
    const expected = mthOf[size];
    expect(treeRoot(size, full.node)).toEqual(expected);
    expect(grow(size).frontier.root()).toEqual(expected);
    expect(MerkleFrontier.of(size, full.node).root()).toEqual(expected);
  });

  it.each(SIZES)('size %i: every leaf’s inclusion proof verifies by RFC 9162 2.1.3.2, and by ours', (size) => {
    const root = mthOf[size];
    for (let index = 0; index < size; index++) {
      const path = inclusionPath(index, size, full.node);
      const leaf = rfc9162.leafHash(leafInputs[index]);
      expect(rfc9162.verifyInclusion(index, size, leaf, path, root)).toBe(true);
      expect(verifyInclusion(index, size, leaf, path, root)).toBe(true);
      // The same proof for another leaf proves nothing.
      const other = rfc9162.leafHash(leafInputs[(index + 1) % 64]);
      expect(rfc9162.verifyInclusion(index, size, other, path, root)).toBe(false);
      expect(verifyInclusion(index, size, other, path, root)).toBe(false);
    }
  });

  it.each(SIZES)(
    'second size %i: the consistency proof from every first size verifies by RFC 9162 2.1.4.2, and by ours',
    (second) => {
      const secondRoot = mthOf[second];
      for (let first = 1; first <= second; first++) {
        const firstRoot = mthOf[first];
        const proof = consistencyPath(first, second, full.node);
        expect(rfc9162.verifyConsistency(first, second, proof, firstRoot, secondRoot)).toBe(true);
        expect(verifyConsistency(first, second, proof, firstRoot, secondRoot)).toBe(true);
        if (first < second) {
          const forged = forgedMthOf[first - 1];
          expect(rfc9162.verifyConsistency(first, second, proof, forged, secondRoot)).toBe(false);
          expect(verifyConsistency(first, second, proof, forged, secondRoot)).toBe(false);
        }
      }
    },
  );

  it('a changed proof fails both verifiers: a flipped bit, a dropped or added hash, another leaf index', () => {
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('add' as const), at: fc.nat() }),
    );
    const apply = (
      hashes: Buffer[],
      e: typeof edit extends fc.Arbitrary<infer T> ? T : never,
    ): Buffer[] | undefined => {
      const copy = hashes.map((h) => Buffer.from(h));
      if (e.kind === 'add') copy.splice(e.at % (copy.length + 1), 0, Buffer.alloc(32, 9));
      else if (copy.length === 0) return undefined;
      else if (e.kind === 'drop') copy.splice(e.at % copy.length, 1);
      else copy[e.at % copy.length][e.at % 32] ^= 1 << e.bit;
      return copy;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.nat(),
        fc.nat(),
        edit,
        fc.integer({ min: 1, max: 63 }),
        (second, a, b, e, shift) => {
          const first = (a % second) + 1;
          const index = b % second;
          const root = mthOf[second];
          const firstRoot = mthOf[first];
          const leaf = rfc9162.leafHash(leafInputs[index]);
          const path = inclusionPath(index, second, full.node);
          const badPath = apply(path, e);
          if (badPath) {
            expect(rfc9162.verifyInclusion(index, second, leaf, badPath, root)).toBe(false);
            expect(verifyInclusion(index, second, leaf, badPath, root)).toBe(false);
          }
          const otherIndex = (index + shift) % second;
          if (otherIndex !== index) {
            expect(rfc9162.verifyInclusion(otherIndex, second, leaf, path, root)).toBe(false);
            expect(verifyInclusion(otherIndex, second, leaf, path, root)).toBe(false);
          }
          const badProof = apply(consistencyPath(first, second, full.node), e);
          if (badProof) {
            expect(rfc9162.verifyConsistency(first, second, badProof, firstRoot, root)).toBe(false);
            expect(verifyConsistency(first, second, badProof, firstRoot, root)).toBe(false);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('appending writes the nodes it completes: one leaf and a carry per trailing one bit', () => {
    const frontier = MerkleFrontier.empty();
    const written = Array.from({ length: 8 }, (_, i) =>
      frontier.append(leafHash(full.chainHashes[i])).map((n) => `${n.level}/${n.index}`),
    );
    expect(written).toEqual([
      ['0/0'],
      ['0/1', '1/0'],
      ['0/2'],
      ['0/3', '1/1', '2/0'],
      ['0/4'],
      ['0/5', '1/2'],
      ['0/6'],
      ['0/7', '1/3', '2/1', '3/0'],
    ]);
    expect(MerkleFrontier.keys(13)).toEqual([
      { level: 3, index: 0 },
      { level: 2, index: 2 },
      { level: 0, index: 12 },
    ]);
  });

  it('a run of leaves gives the roots of the aligned subtrees it holds whole, each at the leaf that ends it', () => {
    const leaves = Buffer.concat(leafInputs.slice(3, 11).map((input) => rfc9162.leafHash(input)));
    const { nodes, counts } = runNodes(leaves, (j) => j + 3);
    expect([...counts]).toEqual([0, 0, 1, 0, 2, 0, 1, 0]);
    const mth = (from: number, to: number) => rfc9162.mth(leafInputs.slice(from, to));
    expect(nodes).toEqual(Buffer.concat([mth(4, 6), mth(6, 8), mth(4, 8), mth(8, 10)]));
  });

  it('growing with the nodes of runs gives the roots of appending alone, wherever the runs’ guess of the leaf index is wrong', () => {
    // Each leaf's guessed index: the next one, or one off it (an entry moved, inserted or deleted).
    const step = fc.oneof(
      { weight: 8, arbitrary: fc.constant(1) },
      { weight: 1, arbitrary: fc.integer({ min: -3, max: 4 }) },
    );
    const batches = fc.array(fc.array(step, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), batches, (before, steps) => {
        const appended = MerkleFrontier.empty();
        const grown = MerkleFrontier.empty();
        const inputs: Buffer[] = [];
        // The roots after every leaf, compared in one assertion: one per leaf cost more than the growing under test.
        const roots: { grown: string[]; appended: string[] } = { grown: [], appended: [] };
        const take = (known?: Buffer) => {
          const input = createHash('sha256').update(`leaf ${inputs.length}`).digest();
          inputs.push(input);
          appended.append(rfc9162.leafHash(input));
          grown.grow(rfc9162.leafHash(input), known);
        };
        for (let i = 0; i < before; i++) take();
        let guess = before - 1;
        for (const batch of steps) {
          const indices = batch.map((d) => (guess = Math.max(0, guess + d)));
          const firstInput = inputs.length;
          const leaves = Buffer.concat(
            indices.map((_, j) =>
              rfc9162.leafHash(
                createHash('sha256')
                  .update(`leaf ${firstInput + j}`)
                  .digest(),
              ),
            ),
          );
          const { nodes, counts } = runNodes(leaves, (j) => indices[j]);
          let used = 0;
          indices.forEach((_, j) => {
            const known = nodes.subarray(used * 32, (used += counts[j]) * 32);
            take(known);
            roots.grown.push(grown.root().toString('hex'));
            roots.appended.push(appended.root().toString('hex'));
          });
        }
        expect(roots.grown).toStrictEqual(roots.appended);
        expect(grown.root()).toEqual(rfc9162.mth(inputs));
      }),
      { numRuns: 200 },
    );
  });
});
