import fc from 'fast-check';
import { checkExportLineBytes, entryReferences, exportLine } from './export-lines';
import { canonicalJson, entryBytes, GENESIS_HASH } from './entry-hash';
import { sha256Hex } from './sha256';
import { SALE_ENTRY_TYPE } from './rule-references';

/** What the verifier reads of a sale's data when it parses all of it. */
const named = (data: Record<string, unknown>) =>
  Object.fromEntries(['rule_entry', 'policy_entry'].filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));

const cut = (text: string) => {
  const references = entryReferences(Buffer.from(text));
  return references === undefined ? undefined : (JSON.parse(references) as Record<string, unknown>);
};

describe('entryReferences', () => {
  it('cuts the members that name entries as JSON.parse reads them from the whole data, or leaves them to it', () => {
    const ref = fc.oneof(fc.record({ position: fc.integer(), hash: fc.string() }), fc.jsonValue());
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.option(ref, { nil: undefined }),
        fc.option(ref, { nil: undefined }),
        (rest, rule, policy) => {
          const text = canonicalJson({ ...rest, rule_entry: rule, policy_entry: policy });
          const whole = named(JSON.parse(text) as Record<string, unknown>);
          // Left to the verifier only for an escape in a key long enough to be one of the names.
          if (!text.includes('\\')) expect(cut(text)).toEqual(whole);
          else expect(cut(text) ?? whole).toEqual(whole);
        },
      ),
    );
  });

  it('takes the last of a duplicated member, as JSON.parse does', () => {
    const text =
      '{"rule_entry":{"position":1,"hash":"a"},"x":[{"rule_entry":2}],"rule_entry":{"position":3,"hash":"b"}}';
    expect(cut(text)).toEqual(named(JSON.parse(text) as Record<string, unknown>));
    expect(cut(text)).toEqual({ rule_entry: { position: 3, hash: 'b' } });
  });

  it('leaves data it cannot cut exactly to the verifier: an escaped key, or not a canonical object', () => {
    expect(entryReferences(Buffer.from('{"rule\\u005fentry":{"position":1,"hash":"a"}}'))).toBeUndefined();
    expect(entryReferences(Buffer.from('{"rule_entry": 1}'))).toBeUndefined();
    expect(entryReferences(Buffer.from('[1]'))).toBeUndefined();
    expect(entryReferences(Buffer.from('{"a":1}x'))).toBeUndefined();
  });

  it("is given with a sale's export line, and only a sale's", () => {
    const line = (type: string) => {
      const fields = {
        position: 1,
        entryId: 'e-1',
        streamId: 's-1',
        streamRevision: 1,
        type,
        recordedAt: '2026-11-21T00:00:00.000Z',
        prevHash: GENESIS_HASH,
      };
      const bytes = entryBytes(fields, '{"a":{"rule_entry":1},"rule_entry":{"hash":"h","position":7}}', '{}');
      return Buffer.from(exportLine(bytes, sha256Hex(bytes)).trimEnd());
    };
    expect(checkExportLineBytes(line(SALE_ENTRY_TYPE)).references).toBe('{"rule_entry":{"hash":"h","position":7}}');
    expect(checkExportLineBytes(line('TipRecorded')).references).toBeUndefined();
  });
});
