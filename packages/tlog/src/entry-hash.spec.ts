import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson, entryHash } from './entry-hash';

describe('entryHash', () => {
  it("is SHA-256 over the canonical JSON of docs/design.md's fields", () => {
    const text = fc.string({ unit: 'binary' });
    const json = fc.dictionary(text, fc.jsonValue());
    const entries = fc.record({
      position: fc.nat(),
      entryId: fc.uuid(),
      streamId: text,
      streamRevision: fc.nat(),
      type: text,
      data: json,
      metadata: json.map((m) => ({ ...m, schemaVersion: 1 })),
      recordedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      prevHash: fc.stringMatching(/^[0-9a-f]{64}$/),
    });
    fc.assert(
      fc.property(entries, (e) => {
        const fields = {
          position: e.position,
          entry_id: e.entryId,
          event_type: e.type,
          stream_id: e.streamId,
          stream_revision: e.streamRevision,
          data: e.data,
          metadata: e.metadata,
          recorded_at: e.recordedAt,
          prev_hash: e.prevHash,
        };
        expect(entryHash(e)).toBe(createHash('sha256').update(canonicalize(fields)!).digest('hex'));
      }),
      { numRuns: 500 },
    );
  });
});

describe('canonicalJson', () => {
  it('writes the same bytes as the canonicalize package for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes as ECMAScript does: control characters, quotes, backslashes, lone surrogates', () => {
    const texts = fc.string({
      unit: fc.oneof(
        fc.constantFrom('"', '\\', '\u0000', '\u001f', '\u007f', '\ud800', '\udfff', 'é', '😀'),
        fc.string({ unit: 'binary', maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(fc.dictionary(texts, texts), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses what JSON cannot hold', () => {
    for (const bad of [Number.NaN, Infinity, undefined, () => 1, BigInt(1)])
      expect(() => canonicalJson([bad])).toThrow();
  });
});
