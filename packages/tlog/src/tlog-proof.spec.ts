import { createHash, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { MerkleFrontier, inclusionPath, leafHash, treeRoot, type NodeLookup } from './merkle-tree';
import { checkpointText, parseVerifierKey, signNote, verifierKey } from './signed-note';
import { formatTlogProof, parseTlogProof, verifyTlogProof } from './tlog-proof';

const ORIGIN = 'crcs.example/tlog-proof';
const key = generateKeyPairSync('ed25519').privateKey;
const verifier = parseVerifierKey(verifierKey(ORIGIN, key));

/** The log's first 40 entries (chain hashes) and its stored nodes, as the service keeps them. */
const entries = Array.from({ length: 40 }, (_, i) => createHash('sha256').update(`entry ${i}`).digest('hex'));
const nodes = new Map<string, Buffer>();
const frontier = MerkleFrontier.empty();
for (const entry of entries)
  for (const n of frontier.append(leafHash(entry))) nodes.set(`${n.level}/${n.index}`, n.hash);
const node: NodeLookup = (level, index) => nodes.get(`${level}/${index}`)!;

function proofOf(index: number, size: number, origin = ORIGIN): string {
  const checkpoint = signNote(checkpointText({ origin, size, root: treeRoot(size, node) }), ORIGIN, key);
  return formatTlogProof({ index, path: inclusionPath(index, size, node), checkpoint });
}

const leafInTree = fc
  .integer({ min: 1, max: entries.length })
  .chain((size) => fc.tuple(fc.integer({ min: 0, max: size - 1 }), fc.constant(size)));

describe('c2sp.org/tlog-proof', () => {
  it('lays out the spec’s lines: header, index, one base64 hash per line from the leaf’s sibling up, a blank line, the checkpoint note', () => {
    const text = proofOf(5, 8);
    const [header, index, ...rest] = text.split('\n');
    expect([header, index]).toEqual(['c2sp.org/tlog-proof@v1', 'index 5']);
    // Leaf 5 of 8: its sibling leaf 4, then the node over leaves 6–7, then the one over 0–3.
    expect(rest.slice(0, 4)).toEqual(
      [leafHash(entries[4]), node(1, 3), node(2, 0), ''].map((h) => (typeof h === 'string' ? h : h.toString('base64'))),
    );
    expect(text.slice(text.indexOf('\n\n') + 2)).toMatch(new RegExp(`^${ORIGIN}\n8\n`));
  });

  it('holds for every entry of every tree size, and for no other entry', () => {
    fc.assert(
      fc.property(leafInTree, fc.integer({ min: 0, max: entries.length - 1 }), ([index, size], other) => {
        const proof = proofOf(index, size);
        expect(verifyTlogProof(proof, verifier, entries[index])).toMatchObject({
          index,
          checkpoint: { origin: ORIGIN, size },
        });
        if (entries[other] !== entries[index])
          expect(() => verifyTlogProof(proof, verifier, entries[other])).toThrow(`is not at index ${index}`);
      }),
    );
  });

  it('parses back what it writes, extra data included', () => {
    fc.assert(
      fc.property(
        leafInTree,
        fc.option(fc.uint8Array({ minLength: 1, maxLength: 40 }), { nil: undefined }),
        ([index, size], extra) => {
          const checkpoint = signNote(
            checkpointText({ origin: ORIGIN, size, root: treeRoot(size, node) }),
            ORIGIN,
            key,
          );
          const proof = {
            index,
            path: inclusionPath(index, size, node),
            checkpoint,
            extra: extra && Buffer.from(extra),
          };
          expect(parseTlogProof(formatTlogProof(proof))).toEqual(proof);
        },
      ),
    );
  });

  it('is refused with any one path hash changed, the index moved, a line dropped, or the checkpoint signed by another key', () => {
    fc.assert(
      fc.property(
        leafInTree.filter(([, size]) => size > 1),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        ([index, size], at, bit) => {
          const proof = parseTlogProof(proofOf(index, size));
          const path = proof.path.map((hash) => Buffer.from(hash));
          path[at % path.length][at % 32] ^= 1 << (bit % 8);
          expect(() => verifyTlogProof(formatTlogProof({ ...proof, path }), verifier, entries[index])).toThrow(
            'the proof does not lead to its root',
          );
          expect(() =>
            verifyTlogProof(formatTlogProof({ ...proof, index: (index + 1) % size }), verifier, entries[index]),
          ).toThrow('the proof does not lead to its root');
          expect(() =>
            verifyTlogProof(formatTlogProof({ ...proof, path: proof.path.slice(1) }), verifier, entries[index]),
          ).toThrow('the proof does not lead to its root');
        },
      ),
    );
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = formatTlogProof({
      ...parseTlogProof(proofOf(3, 9)),
      checkpoint: signNote(checkpointText({ origin: ORIGIN, size: 9, root: treeRoot(9, node) }), ORIGIN, other),
    });
    expect(() => verifyTlogProof(forged, verifier, entries[3])).toThrow('no signature of a known key');
  });

  it('says what is wrong with a text that is not a proof, or an index beyond the checkpoint', () => {
    expect(() => parseTlogProof('c2sp.org/tlog-proof@v2\nindex 1\n\nx')).toThrow(
      'begins with the line c2sp.org/tlog-proof@v1',
    );
    expect(() => parseTlogProof('c2sp.org/tlog-proof@v1\nindex 01\n\nx')).toThrow(
      'expected "index <decimal>", found "index 01"',
    );
    expect(() => parseTlogProof('c2sp.org/tlog-proof@v1\nindex 1\nnot-a-hash\n\nx')).toThrow(
      'a proof line is the base64 of a 32-byte hash',
    );
    expect(() => parseTlogProof('c2sp.org/tlog-proof@v1\nindex 1')).toThrow('then the checkpoint note');
    const beyond = formatTlogProof({ ...parseTlogProof(proofOf(3, 4)), index: 4 });
    expect(() => verifyTlogProof(beyond, verifier, entries[3])).toThrow(
      "index 4 is not in the checkpoint's tree of 4 entries",
    );
    expect(() => verifyTlogProof(proofOf(3, 4, 'crcs.example/another'), verifier, entries[3])).toThrow(
      "the checkpoint's origin crcs.example/another is not the log crcs.example/tlog-proof",
    );
  });
});
