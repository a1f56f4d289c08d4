import { Readable } from 'node:stream';
import { createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import { buildChain, byPosition, newSigningKey, rehashFrom } from '../../packages/tlog/test/chain';
import {
  keyRing,
  checkExportLine,
  checkExportLineBytes,
  toExportLine,
  sha256Hex,
  ChainVerifier,
  type VerifierOptions,
  UnreadableLineError,
  verifyExport,
  WRITER_AUTHENTICATION_EVENT_TYPE,
  writerKey,
  writerMac,
} from '@crcs/tlog';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';

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
  change: (entries: StoredEvent[], p: number) =>
    entries.map((e) => (e.position === p ? { ...e, data: { cents: 1 } } : e)),
  delete: (entries: StoredEvent[], p: number) => entries.filter((e) => e.position !== p),
  swap: (entries: StoredEvent[], p: number) =>
    byPosition(
      entries.map((e) =>
        e.position === p ? { ...e, position: p + 3 } : e.position === p + 3 ? { ...e, position: p } : e,
      ),
    ),
  rewrite: (entries: StoredEvent[], p: number) =>
    rehashFrom(
      entries.map((e) => (e.position === p ? { ...e, data: { cents: 1 } } : e)),
      p,
    ),
};

describe('verifyExport', () => {
  it('finds what the verifier finds over the entries themselves, hashing the lines as they are', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(tamperings) as (keyof typeof tamperings)[])),
        fc.integer({ min: 2, max: 140 }),
        async (kind, p) => {
          const tampered = tamperings[kind](chain, p);
          const want = expected(tampered);
          expect(want.break_count).toBeGreaterThan(0);
          expect(await fromExport(exported(tampered), false)).toEqual(want);
        },
      ),
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
    expect(await fromExport(tamperings.change(chain, 33).map(oldLayout).join(''), false)).toEqual(
      expected(tamperings.change(chain, 33)),
    );
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

describe('writer authenticators in an export', () => {
  const writer = writerKey(key);
  // The authentication boundary is the entry at position 10.
  const bounded = rehashFrom(
    buildChain(150).map((e) => (e.position === 10 ? { ...e, type: WRITER_AUTHENTICATION_EVENT_TYPE } : e)),
    10,
  );
  const withMacs: (StoredEvent & { writerMac: string | null })[] = bounded.map((e) => ({
    ...e,
    writerMac: writerMac(writer, e.hash),
  }));
  const verify = async (entries: typeof withMacs, parallel: boolean) => {
    const verifier = new ChainVerifier({ ...options, writerKey: writer });
    await verifyExport(Readable.from([exported(entries)]), verifier, parallel);
    return verifier.result();
  };
  const direct = (entries: typeof withMacs) => {
    const verifier = new ChainVerifier({ ...options, writerKey: writer });
    entries.forEach((e) => verifier.push(e));
    return verifier.result();
  };

  it('are read after the hash, on either thread, and a missing one after the boundary or a wrong one is unauthenticated', async () => {
    expect(await verify(withMacs, false)).toMatchObject({ break_count: 0, verified_count: chain.length });
    const tampered = withMacs.map((e) =>
      e.position === 30 ? { ...e, writerMac: null } : e.position === 90 ? { ...e, writerMac: 'ab'.repeat(32) } : e,
    );
    const want = direct(tampered);
    expect(want.breaks).toEqual([
      expect.objectContaining({
        kind: 'unauthenticated',
        position: 30,
        detail:
          'the entry at position 30 carries no writer authenticator, but every entry from position 10 must: no service process wrote it',
      }),
      expect.objectContaining({
        kind: 'unauthenticated',
        position: 90,
        detail:
          'the entry at position 90 carries a writer authenticator that does not verify: no service process wrote it as it is',
      }),
    ]);
    expect(await verify(tampered, false)).toEqual(want);
    expect(await verify(tampered, true)).toEqual(want);
    // Entries before the boundary were written before writer authentication; one that carries an authenticator must carry a valid one.
    const before = withMacs.map((e) =>
      e.position < 10 ? { ...e, writerMac: e.position === 5 ? 'ab'.repeat(32) : null } : e,
    );
    expect(direct(before).breaks).toEqual([expect.objectContaining({ kind: 'unauthenticated', position: 5 })]);
  }, 120_000);

  it('cannot be switched off by clearing every authenticator: each entry from the boundary on is unauthenticated', () => {
    const cleared = direct(withMacs.map((e) => ({ ...e, writerMac: null })));
    expect(cleared.break_count).toBe(141);
    expect(cleared.breaks[0]).toMatchObject({
      kind: 'unauthenticated',
      position: 10,
      detail:
        'the entry at position 10 carries no writer authenticator, but every entry from position 10 must: no service process wrote it',
    });
  });

  it('of a range that starts after the boundary are required from the boundary it is given', () => {
    const verifier = new ChainVerifier({ writerKey: writer, fromPosition: 50, writersRequiredFrom: 10 });
    withMacs.slice(49).forEach((e) => verifier.push(e.position === 60 ? { ...e, writerMac: null } : e));
    expect(verifier.result().breaks).toEqual([expect.objectContaining({ kind: 'unauthenticated', position: 60 })]);
  });
});

describe('checkExportLineBytes', () => {
  const lines = exported(chain).split('\n').filter(Boolean);
  /** A line's answer, or its error: the fast reading and the full one must give the same. */
  const outcome = (read: () => unknown) => {
    try {
      return { read: read() };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const alphabet = [...'{}[]",:\\/0123456789-+.eEtrufalsn u', '\u0001', '\t', 'é', '\ud800'].map((c) => Buffer.from(c));
  const edit = fc.record({
    line: fc.integer({ min: 0, max: lines.length - 1 }),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    kind: fc.constantFrom('replace', 'insert', 'delete'),
    with: fc.oneof(
      fc.constantFrom(...alphabet),
      fc.uint8Array({ minLength: 1, maxLength: 2 }).map((b) => Buffer.from(b)),
    ),
    // The tamperer rehashes the edited line, so that its hash vouches for whatever it now holds.
    rehash: fc.boolean(),
  });

  it('reads every line, edited anywhere and rehashed or not, as JSON.parse of the whole line does', () => {
    fc.assert(
      fc.property(edit, (e) => {
        const original = Buffer.from(lines[e.line]);
        const at = Math.floor(e.at * original.length);
        let bytes = Buffer.concat([
          original.subarray(0, at),
          e.kind === 'delete' ? Buffer.alloc(0) : e.with,
          original.subarray(e.kind === 'insert' ? at : at + 1),
        ]);
        if (e.rehash && bytes.length > 75) {
          const entry = Buffer.concat([bytes.subarray(0, bytes.length - 75), Buffer.from('}')]);
          bytes = Buffer.concat([bytes.subarray(0, bytes.length - 75), Buffer.from(`,"hash":"${sha256Hex(entry)}"}`)]);
        }
        expect(outcome(() => checkExportLineBytes(Buffer.from(bytes)))).toEqual(
          outcome(() => checkExportLine(bytes.toString())),
        );
      }),
      { numRuns: 3000 },
    );
  });

  const rehashed = (line: string) => {
    const entry = `${line.slice(0, -75)}}`;
    return `${line.slice(0, -75)},"hash":"${sha256Hex(entry)}"}`;
  };

  it('takes an unedited line by its fields, without the full reading', () => {
    const want = lines.slice(0, 30).map((line) => checkExportLine(line));
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(lines.slice(0, 30).map((line) => checkExportLineBytes(Buffer.from(line)))).toEqual(want);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it.each([
    ['a missing colon', '"cents":', '"cents"'],
    ['a trailing comma', '"cents":', '"x":1,}'],
    ['a leading zero', '"cents":', '"cents":0'],
    ['a raw control character', '"key_test"', '"key\u0001test"'],
    ['a bad escape', '"key_test"', '"key\\xtest"'],
    ['a bare word', '"cents":', '"cents":tru,"c":'],
  ])('refuses a line with %s even when its hash vouches for it', (_, from, to) => {
    const line = rehashed(lines[3].replace(from, to));
    expect(line).not.toBe(lines[3]);
    expect(() => checkExportLineBytes(Buffer.from(line))).toThrow(/JSON/);
  });
});
