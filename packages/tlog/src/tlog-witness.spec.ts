import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { MerkleFrontier, consistencyPath, leafHash, type NodeLookup } from './merkle-tree';
import { cosign, cosignatures, cosignerKey, parseCosignerKey } from './cosignature';
import { checkpointText, parseVerifierKey, signNote, verifierKey } from './signed-note';
import { parseTlogPolicy, policyCosignatures, quorumMet } from './tlog-policy';
import { TLOG_SIZE, addCheckpointBody, judgeCheckpoint, type WitnessedTree } from './tlog-witness';

const ORIGIN = 'example.com/log';
const logKey = generateKeyPairSync('ed25519').privateKey;
const log = parseVerifierKey(verifierKey(ORIGIN, logKey));

/** A tree of `size` leaves whose leaf `forkAt` (if any) differs: the nodes and roots of every size. */
function tree(size: number, forkAt = -1): { node: NodeLookup; roots: Buffer[] } {
  const nodes = new Map<string, Buffer>();
  const frontier = MerkleFrontier.empty();
  const roots = [frontier.root()];
  for (let i = 0; i < size; i++) {
    for (const n of frontier.append(leafHash((i === forkAt ? i + 1_000_000 : i).toString(16).padStart(64, '0'))))
      nodes.set(`${n.level}/${n.index}`, n.hash);
    roots.push(frontier.root());
  }
  return { node: (level, index) => nodes.get(`${level}/${index}`)!, roots };
}

const note = (size: number, root: Buffer) => signNote(checkpointText({ origin: ORIGIN, size, root }), ORIGIN, logKey);

describe('the witness judges add-checkpoint (c2sp.org/tlog-witness)', () => {
  it('cosigns what extends its last tree, refuses with 422 a tree forked below it, answers 409 with its size otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), fc.nat(), (a, b, fork) => {
        const [old, size] = a <= b ? [a, b] : [b, a];
        const honest = tree(size);
        const seen: WitnessedTree = { size: old, root: honest.roots[old] };
        const body = (t: typeof honest) =>
          addCheckpointBody(old, old === size ? [] : consistencyPath(old, size, t.node), note(size, t.roots[size]));
        expect(judgeCheckpoint(body(honest), [log], () => seen)).toMatchObject({
          checkpoint: { origin: ORIGIN, size },
        });
        expect(judgeCheckpoint(body(honest), [log], () => ({ size: old + 1, root: seen.root }))).toEqual({
          status: 409,
          contentType: TLOG_SIZE,
          body: `${old + 1}\n`,
        });
        const forked = tree(size, fork % old);
        const refused = judgeCheckpoint(body(forked), [log], () => seen);
        expect(refused).toMatchObject({ status: old === size ? 409 : 422 });
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a checkpoint of an unknown log (404), without the log’s valid signature (403), and an old size beyond it (400)', () => {
    const { roots } = tree(4);
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(judgeCheckpoint(addCheckpointBody(0, [], note(4, roots[4])), [], () => undefined)).toMatchObject({
      status: 404,
      body: `this witness does not witness the log ${ORIGIN}\n`,
    });
    const forged = signNote(checkpointText({ origin: ORIGIN, size: 4, root: roots[4] }), ORIGIN, other);
    expect(judgeCheckpoint(addCheckpointBody(0, [], forged), [log], () => undefined)).toMatchObject({ status: 403 });
    expect(judgeCheckpoint(addCheckpointBody(5, [], note(4, roots[4])), [log], () => undefined)).toMatchObject({
      status: 400,
      body: "the old size 5 is beyond the checkpoint's tree size 4\n",
    });
    expect(judgeCheckpoint('old 01\n\n', [log], () => undefined)).toMatchObject({ status: 400 });
  });
});

describe('cosignatures (c2sp.org/tlog-cosignature) and policies (c2sp.org/tlog-policy)', () => {
  const w1 = generateKeyPairSync('ed25519').privateKey;
  const w2 = generateKeyPairSync('ed25519').privateKey;
  const text = checkpointText({ origin: ORIGIN, size: 4, root: tree(4).roots[4] });

  it('verifies a cosignature with its 0x04 key and its timestamp, ignores other keys’ lines, rejects an altered one', () => {
    const line = cosign(text, 'w.example/1', w1, 1_700_000_000);
    const key = parseCosignerKey(cosignerKey('w.example/1', w1));
    const cosigned = `${signNote(text, ORIGIN, logKey)}${line}`;
    expect([...cosignatures(cosigned, [key]).values()]).toEqual([1_700_000_000]);
    expect(cosignatures(cosigned, [parseCosignerKey(cosignerKey('w.example/2', w2))]).size).toBe(0);
    expect(() => cosignatures(cosigned.replace('\n4\n', '\n5\n'), [key])).toThrow(
      'the cosignature of w.example/1 does not verify',
    );
    // The same key as a note (0x01) key is another key id: a cosignature is never taken for a log signature.
    expect(() => parseVerifierKey(cosignerKey('w.example/1', w1))).toThrow('not an Ed25519 verifier key');
  });

  it('reads groups and thresholds, and tells when the quorum is met', () => {
    const policy = parseTlogPolicy(
      [
        `log ${verifierKey(ORIGIN, logKey)}`,
        `witness A ${cosignerKey('w.example/1', w1)} http://127.0.0.1:1`,
        `  witness B\t${cosignerKey('w.example/2', w2)}`,
        '# a comment',
        'group both all A B',
        'quorum both',
        '',
      ].join('\n'),
    );
    expect(policy.witnesses.map((w) => [w.name, w.url])).toEqual([
      ['A', 'http://127.0.0.1:1'],
      ['B', undefined],
    ]);
    expect(quorumMet(policy, new Set(['A']))).toBe(false);
    expect(quorumMet(policy, new Set(['A', 'B']))).toBe(true);
    expect(() => parseTlogPolicy(`witness A ${cosignerKey('w.example/1', w1)}\nquorum C\n`)).toThrow(
      'policy line 2: the quorum C is not a witness or group defined above',
    );
    expect(() =>
      parseTlogPolicy(
        `witness A ${cosignerKey('w.example/1', w1)}\nwitness B ${cosignerKey('w.example/3', w1)}\nquorum A\n`,
      ),
    ).toThrow('policy line 2: a key listed twice');
    expect(() => parseTlogPolicy('log x\n')).toThrow('policy line 1: not a verifier key');
    expect(() => parseTlogPolicy('')).toThrow('the policy has no quorum line');
  });

  it('counts a note’s cosignatures against the quorum, in the policy’s order, each with its time; refuses one that does not verify', () => {
    const policy = parseTlogPolicy(
      `log ${verifierKey(ORIGIN, logKey)}\nwitness A ${cosignerKey('w.example/1', w1)}\nwitness B ${cosignerKey('w.example/2', w2)}\ngroup both all A B\nquorum both\n`,
    );
    const byB = `${signNote(text, ORIGIN, logKey)}${cosign(text, 'w.example/2', w2, 1_700_000_060)}`;
    const counted = (note: string) => {
      const { cosigned, met } = policyCosignatures(note, policy);
      return { cosigned: [...cosigned].map(([witness, timestamp]) => [witness.name, timestamp]), met };
    };
    expect(counted(signNote(text, ORIGIN, logKey))).toEqual({ cosigned: [], met: false });
    expect(counted(byB)).toEqual({ cosigned: [['B', 1_700_000_060]], met: false });
    expect(counted(`${byB}${cosign(text, 'w.example/1', w1, 1_700_000_000)}`)).toEqual({
      cosigned: [
        ['A', 1_700_000_000],
        ['B', 1_700_000_060],
      ],
      met: true,
    });
    expect(() => policyCosignatures(byB.replace('\n4\n', '\n5\n'), policy)).toThrow(
      'the cosignature of w.example/2 does not verify',
    );
  });
});
