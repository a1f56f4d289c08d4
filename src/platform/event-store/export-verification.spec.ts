import { Readable } from 'node:stream';
import { createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import { buildChain, byPosition, newSigningKey, rehashFrom } from '../../../test/support/chain';
import { keyRing } from './chain-checkpoint';
import { toExportLine } from './chain-export';
import { ChainVerifier, type VerifierOptions } from './chain-verifier';
import type { StoredEvent } from './event-store.port';
import { UnreadableLineError, verifyExport } from './export-verification';

const key = newSigningKey();
const options: VerifierOptions = { checkpointKeys: keyRing([createPublicKey(key)]) };
const chain = buildChain(150, { checkpointEvery: 20, signingKey: key });

/** The reference: the verifier over the entries themselves, every hash rebuilt from canonical JSON. */
function expected(entries: StoredEvent[]) {
  const verifier = new ChainVerifier(options);
  entries.forEach((e) => verifier.push(e));
  return verifier.result();
}

async function fromExport(text: string, parallel: boolean) {
  const verifier = new ChainVerifier(options);
  await verifyExport(Readable.from([text]), verifier, parallel);
  return verifier.result();
}

const exported = (entries: StoredEvent[]) => entries.map(toExportLine).join('');
/** The layout exports had before lines were the hashed bytes: fields in column order, hash last. */
const oldLayout = (e: StoredEvent) =>
  `${JSON.stringify({ position: e.position, entry_id: e.entryId, stream_id: e.streamId, stream_revision: e.streamRevision, event_type: e.type, data: e.data, metadata: e.metadata, recorded_at: e.recordedAt, prev_hash: e.prevHash, hash: e.hash })}\n`;

const tamperings = {
  change: (entries: StoredEvent[], p: number) => entries.map((e) => (e.position === p ? { ...e, data: { cents: 1 } } : e)),
  delete: (entries: StoredEvent[], p: number) => entries.filter((e) => e.position !== p),
  swap: (entries: StoredEvent[], p: number) =>
    byPosition(entries.map((e) => (e.position === p ? { ...e, position: p + 3 } : e.position === p + 3 ? { ...e, position: p } : e))),
  rewrite: (entries: StoredEvent[], p: number) => rehashFrom(entries.map((e) => (e.position === p ? { ...e, data: { cents: 1 } } : e)), p),
};

describe('verifyExport', () => {
  it('finds what the verifier finds over the entries themselves, hashing the lines as they are', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...(Object.keys(tamperings) as (keyof typeof tamperings)[])), fc.integer({ min: 2, max: 140 }), async (kind, p) => {
        const tampered = tamperings[kind](chain, p);
        const want = expected(tampered);
        expect(want.break_count).toBeGreaterThan(0);
        expect(await fromExport(exported(tampered), false)).toEqual(want);
      }),
      { numRuns: 60 },
    );
  });

  it('gives the same answer on worker threads as on its own thread', async () => {
    for (const tampered of [chain, tamperings.swap(chain, 40), tamperings.rewrite(chain, 70)]) {
      const want = expected(tampered);
      expect(await fromExport(exported(tampered), true)).toEqual(want);
    }
  }, 120_000);

  it('still verifies an export in the older layout, by rebuilding each entry', async () => {
    const result = await fromExport(chain.map(oldLayout).join(''), false);
    expect(result).toEqual(expected(chain));
    expect(result.break_count).toBe(0);
    expect(await fromExport(tamperings.change(chain, 33).map(oldLayout).join(''), false)).toEqual(expected(tamperings.change(chain, 33)));
  });

  it('skips blank lines and CRLF endings, and names the line it cannot read', async () => {
    const lines = exported(chain).split('\n');
    expect(await fromExport(`\n${lines.join('\r\n')}\n\n`, false)).toEqual(expected(chain));
    const broken = [...lines.slice(0, 4), '{"position": 5', ...lines.slice(5)].join('\n');
    for (const parallel of [true, false]) {
      const failure = fromExport(broken, parallel);
      await expect(failure).rejects.toBeInstanceOf(UnreadableLineError);
      await expect(failure).rejects.toThrow(/^line 5: .*JSON/);
    }
  }, 60_000);
});
