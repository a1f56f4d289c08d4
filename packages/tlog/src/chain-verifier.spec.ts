import { createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import { buildChain, byPosition, newSigningKey, rehashFrom } from '../test/chain';
import { keyRing } from './checkpoint';
import { ChainVerifier, MAX_LISTED_BREAKS, type VerifierOptions } from './chain-verifier';
import type { LogEntry } from './log-entry';
import { entryHash } from './entry-hash';
import { MerkleFrontier, leafHash } from './merkle-tree';

const verify = (entries: LogEntry[], options?: VerifierOptions) => {
  const verifier = new ChainVerifier(options);
  entries.forEach((e) => verifier.push(e));
  return verifier.result();
};

// Tampering as SQL would do it to the events table, read back in position order.
const changeAmount = (chain: LogEntry[], position: number) =>
  chain.map((e) => (e.position === position ? { ...e, data: { cents: 1 } } : e));
const deleteAt = (chain: LogEntry[], position: number) => chain.filter((e) => e.position !== position);
const swap = (chain: LogEntry[], a: number, b: number) =>
  byPosition(
    chain.map((e) => (e.position === a ? { ...e, position: b } : e.position === b ? { ...e, position: a } : e)),
  );
/** Moves every entry from `position` up by one and puts a forged entry, correctly hashed and linked, in the gap. */
function insertForged(chain: LogEntry[], position: number, linked = true): { chain: LogEntry[]; forged: LogEntry } {
  const before = chain[position - 2];
  const entry = {
    ...chain[position - 1],
    entryId: 'ffffffff-0000-4000-8000-000000000000',
    streamId: 'transaction-forged',
    streamRevision: 1,
    data: { cents: 99_999 },
    prevHash: linked ? before.hash : 'f'.repeat(64),
  };
  const forged = { ...entry, hash: entryHash(entry) };
  const shifted = chain.map((e) => (e.position >= position ? { ...e, position: e.position + 1 } : e));
  return { chain: byPosition([...shifted, forged]), forged };
}

describe('ChainVerifier', () => {
  const key = newSigningKey();
  const keys = keyRing([createPublicKey(key)]);

  it('verifies an untouched chain, checkpoints and signatures included', () => {
    const chain = buildChain(300, { checkpointEvery: 50, signingKey: key });
    // Checkpoint n is entry 50n + 1 and vouches for entry 50n.
    const tree = MerkleFrontier.empty();
    for (const e of chain) tree.append(leafHash(e.hash));
    expect(verify(chain, { checkpointKeys: keys })).toEqual({
      total_count: 300,
      verified_count: 300,
      break_count: 0,
      breaks: [],
      checkpoints: {
        count: 5,
        signatures_checked: true,
        last: { checkpoint: 5, position: 250, hash: chain[249].hash },
      },
      tree: { tree_size: 300, root_hash: tree.root().toString('hex'), witnessed_heads: null },
    });
  });

  it('finds a changed amount: the entry, with its stored and recomputed hash', () => {
    const chain = buildChain(20);
    const tampered = changeAmount(chain, 7);
    expect(verify(tampered)).toMatchObject({
      total_count: 20,
      verified_count: 19,
      breaks: [
        {
          kind: 'modified',
          position: 7,
          entry_id: chain[6].entryId,
          stored_hash: chain[6].hash,
          expected_hash: entryHash(tampered[6]),
        },
      ],
    });
  });

  it('finds a deleted entry: the positions missing and the entry after the gap', () => {
    const chain = buildChain(20);
    expect(verify(deleteAt(chain, 7))).toMatchObject({
      total_count: 19,
      breaks: [
        {
          kind: 'deleted',
          position: 8,
          entry_id: chain[7].entryId,
          missing_positions: { from: 7, to: 7 },
          expected_prev_hash: chain[5].hash,
          actual_prev_hash: chain[6].hash,
        },
      ],
    });
  });

  it('finds two swapped entries, each with the position it belongs at', () => {
    const chain = buildChain(20);
    expect(verify(swap(chain, 5, 6)).breaks).toEqual([
      expect.objectContaining({ kind: 'reordered', position: 5, entry_id: chain[5].entryId, original_position: 6 }),
      expect.objectContaining({ kind: 'reordered', position: 6, entry_id: chain[4].entryId, original_position: 5 }),
    ]);
    expect(verify(swap(chain, 3, 11)).breaks).toEqual([
      expect.objectContaining({ kind: 'reordered', position: 3, entry_id: chain[10].entryId, original_position: 11 }),
      expect.objectContaining({ kind: 'reordered', position: 11, entry_id: chain[2].entryId, original_position: 3 }),
    ]);
  });

  it('finds an inserted entry, linked and hashed like a real one, without blaming the entries it pushed up', () => {
    const { chain, forged } = insertForged(buildChain(20), 9);
    expect(verify(chain)).toMatchObject({
      total_count: 21,
      verified_count: 20,
      breaks: [{ kind: 'inserted', position: 9, entry_id: forged.entryId }],
    });
    const careless = insertForged(buildChain(20), 9, false);
    expect(verify(careless.chain).breaks).toEqual([
      expect.objectContaining({ kind: 'inserted', position: 9, entry_id: careless.forged.entryId }),
    ]);
  });

  it('finds an entry rewritten with a recomputed hash at the link to the next one', () => {
    const chain = buildChain(20);
    const forged = { ...chain[4], data: { cents: 1 } };
    const tampered = chain.map((e) => (e.position === 5 ? { ...forged, hash: entryHash(forged) } : e));
    expect(verify(tampered).breaks).toEqual([
      expect.objectContaining({
        kind: 'modified',
        position: 6,
        entry_id: chain[5].entryId,
        expected_prev_hash: entryHash(forged),
        actual_prev_hash: chain[4].hash,
      }),
    ]);
  });

  it('finds a deletion hidden by renumbering the entries after it', () => {
    const chain = buildChain(20);
    const renumbered = deleteAt(chain, 7).map((e) => (e.position > 7 ? { ...e, position: e.position - 1 } : e));
    expect(verify(renumbered).breaks).toEqual([
      expect.objectContaining({
        kind: 'deleted',
        position: 7,
        entry_id: chain[7].entryId,
        missing_positions: { from: 7, to: 7 },
      }),
    ]);
  });

  it("finds an entry deleted under a recomputed chain by its stream's revisions", () => {
    const chain = buildChain(20);
    const renumbered = deleteAt(chain, 8).map((e) => (e.position > 8 ? { ...e, position: e.position - 1 } : e));
    // Entry 8 was revision 2 of transaction-2; revision 3 (entry 13) now follows revision 1.
    expect(verify(rehashFrom(renumbered, 8)).breaks).toEqual([
      expect.objectContaining({
        kind: 'deleted',
        position: 12,
        entry_id: chain[12].entryId,
        detail: 'stream transaction-2: expected revision 2, found 3',
      }),
    ]);
  });

  describe('in a file, where lines can be moved without touching their positions', () => {
    it('finds two swapped lines', () => {
      const chain = buildChain(20);
      const lines = [...chain];
      [lines[4], lines[5]] = [lines[5], lines[4]];
      expect(verify(lines).breaks).toEqual([
        expect.objectContaining({ kind: 'reordered', position: 5, entry_id: chain[4].entryId }),
      ]);
    });
  });

  describe('a range', () => {
    it('starts from the prev_hash of its first entry, and accepts streams begun before it', () => {
      const chain = buildChain(40);
      expect(verify(chain.slice(14, 30), { fromPosition: 15 })).toMatchObject({ total_count: 16, break_count: 0 });
    });

    it('reports its first entry missing', () => {
      const chain = buildChain(40);
      expect(verify(chain.slice(15, 30), { fromPosition: 15 }).breaks).toEqual([
        expect.objectContaining({ kind: 'deleted', position: 16, missing_positions: { from: 15, to: 15 } }),
      ]);
    });
  });

  describe('signed checkpoints', () => {
    const chain = buildChain(60, { checkpointEvery: 10, signingKey: key });
    const checkpointAt = (n: number) => chain.find((e) => e.data.checkpoint === n)!;

    it('catch a rewrite of the tail that recomputed every hash, at the entry each checkpoint covers', () => {
      const first = checkpointAt(1);
      const tampered = rehashFrom(changeAmount(chain, first.position + 3), first.position + 3);
      const result = verify(tampered, { checkpointKeys: keys });
      const second = checkpointAt(2);
      expect(result.breaks[0]).toEqual(
        expect.objectContaining({
          kind: 'modified',
          position: second.position - 1,
          entry_id: chain[second.position - 2].entryId,
          expected_hash: chain[second.position - 2].hash,
          stored_hash: tampered[second.position - 2].hash,
          checkpoint: { checkpoint: 2, position: second.position, entry_id: second.entryId },
        }),
      );
      expect(result.breaks[0].detail).toContain(`after position ${first.position - 1}`);
      // Without checkpoints the same rewrite goes unnoticed: that is what they are for.
      const plain = buildChain(60);
      expect(verify(rehashFrom(changeAmount(plain, 14), 14)).break_count).toBe(0);
    });

    it('report a signature that does not verify, and one by a key not given', () => {
      const last = checkpointAt(5);
      const forged = { ...last, data: { ...last.data, signature: Buffer.alloc(64).toString('base64') } };
      const tampered = rehashFrom(
        chain.map((e) => (e === last ? forged : e)),
        last.position,
      );
      expect(verify(tampered, { checkpointKeys: keys }).breaks).toEqual([
        expect.objectContaining({
          kind: 'modified',
          position: last.position,
          detail: 'checkpoint 5 has an invalid signature',
        }),
      ]);
      const otherKeys = keyRing([createPublicKey(newSigningKey())]);
      expect(verify(chain, { checkpointKeys: otherKeys }).breaks).toHaveLength(5);
      expect(verify(chain, { checkpointKeys: otherKeys }).breaks[0].detail).toMatch(
        /^checkpoint 1 is signed by key [0-9a-f]{16}, which is not among the keys given$/,
      );
    });

    it('are not checked for signatures without keys, and say so', () => {
      expect(verify(chain).checkpoints).toMatchObject({ count: 5, signatures_checked: false });
    });
  });

  describe('on any one tampering', () => {
    const chain = buildChain(120);
    const position = fc.integer({ min: 2, max: 119 });

    it('names exactly the entries involved', () => {
      fc.assert(
        fc.property(position, (p) => {
          expect(verify(changeAmount(chain, p)).breaks).toEqual([
            expect.objectContaining({ kind: 'modified', position: p }),
          ]);
          expect(verify(deleteAt(chain, p)).breaks).toEqual([
            expect.objectContaining({ kind: 'deleted', position: p + 1 }),
          ]);
          const { chain: inserted, forged } = insertForged(chain, p);
          expect(verify(inserted).breaks).toEqual([
            expect.objectContaining({ kind: 'inserted', entry_id: forged.entryId }),
          ]);
        }),
        { numRuns: 40 },
      );
    });

    it('names both entries of a swap', () => {
      fc.assert(
        fc.property(position, fc.integer({ min: 1, max: 60 }), (a, distance) => {
          const b = Math.min(a + distance, 120);
          fc.pre(b > a);
          expect(verify(swap(chain, a, b)).breaks).toEqual([
            expect.objectContaining({
              kind: 'reordered',
              position: a,
              entry_id: chain[b - 1].entryId,
              original_position: b,
            }),
            expect.objectContaining({
              kind: 'reordered',
              position: b,
              entry_id: chain[a - 1].entryId,
              original_position: a,
            }),
          ]);
        }),
        { numRuns: 40 },
      );
    });
  });

  it('counts every break of a log broken everywhere but lists a bounded number', () => {
    const chain = buildChain(MAX_LISTED_BREAKS + 50).map((e) => ({ ...e, data: { cents: -1 } }));
    const result = verify(chain);
    expect(result.break_count).toBe(MAX_LISTED_BREAKS + 50);
    expect(result.breaks).toHaveLength(MAX_LISTED_BREAKS);
    // Not one link holds: every entry is a cut in the chain.
    const unlinked = buildChain(MAX_LISTED_BREAKS + 50).map((e) => {
      const entry = { ...e, prevHash: 'f'.repeat(64) };
      return { ...entry, hash: entryHash(entry) };
    });
    expect(verify(unlinked)).toMatchObject({ break_count: MAX_LISTED_BREAKS + 50, verified_count: 0 });
  });
});

describe('the rule entry a sale names', () => {
  /** Four sales from before the rules were in the log, then an imported rule, then `after` (entries' hashes made right). */
  const withRules = (...after: { type: string; data: Record<string, unknown> }[]) => {
    const old = buildChain(4);
    const entries = [{ type: 'JurisdictionRuleImported', data: { rule: { lookup_key: 'AZ' } } }, ...after];
    const chain = [
      ...old,
      ...entries.map(({ type, data }, i) => ({
        ...old[0],
        position: 5 + i,
        entryId: `00000000-0000-4000-9000-${String(5 + i).padStart(12, '0')}`,
        streamId: `test-${5 + i}`,
        streamRevision: 1,
        type,
        data,
      })),
    ];
    return rehashFrom(chain, 5);
  };
  const sale = (data: Record<string, unknown>) => ({ type: 'TransactionRecorded', data: { cents: 1003, ...data } });
  const ruleAt5 = () => withRules()[4];

  it('verifies older sales that name none and a sale that names the earlier rule entry with its hash', () => {
    const { position, hash } = ruleAt5();
    expect(verify(withRules(sale({ rule_entry: { position, hash } })))).toMatchObject({ break_count: 0 });
  });

  type Ref = { position: number; hash: string };
  it.each<[string, (rule: Ref) => Record<string, unknown>, RegExp]>([
    [
      'names another hash',
      () => ({ rule_entry: { position: 5, hash: 'a'.repeat(64) } }),
      /with hash a{64}, but that entry's fields hash to/,
    ],
    [
      'names an entry that is not a rule',
      () => ({ rule_entry: { position: 2, hash: 'a'.repeat(64) } }),
      /position 2, which is not a rule entry$/,
    ],
    [
      'names itself',
      () => ({ rule_entry: { position: 6, hash: 'a'.repeat(64) } }),
      /position 6, which is not earlier in the log$/,
    ],
    [
      'names no rule once the rules are in the log',
      () => ({}),
      /names no rule entry, though the rules are in the log from position 5$/,
    ],
    [
      'names a policy that is not a rule entry',
      (rule) => ({ rule_entry: rule, policy_entry: { position: 3, hash: 'a'.repeat(64) } }),
      /rounding policy entry at position 3, which is not a rule entry$/,
    ],
  ])('is a rule_reference break when the sale %s', (_, data, detail) => {
    const { position, hash } = ruleAt5();
    expect(verify(withRules(sale(data({ position, hash }))))).toMatchObject({
      break_count: 1,
      breaks: [{ kind: 'rule_reference', position: 6, detail: expect.stringMatching(detail) }],
    });
  });

  it('is a rule_reference break when the rule was rewritten and every hash after it recomputed', () => {
    const { position, hash } = ruleAt5();
    const chain = withRules(sale({ rule_entry: { position, hash } }));
    chain[4] = { ...chain[4], data: { rule: { lookup_key: 'AZ', rounding_mode: 'mandatory_round_up' } } };
    expect(verify(rehashFrom(chain, 5))).toMatchObject({
      break_count: 1,
      breaks: [{ kind: 'rule_reference', position: 6 }],
    });
  });
});
