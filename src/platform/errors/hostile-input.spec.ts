import fc from 'fast-check';
import { MAX_JSON_DEPTH, refuseJson, refuseTexts } from './hostile-input';

const nested = (levels: number): unknown => (levels === 1 ? [] : [nested(levels - 1)]);
/** A UTF-16 code unit of a surrogate half, alone. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
const cleanText = fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('\u0000'));

describe('refuseJson', () => {
  it('takes JSON nested exactly 32 levels, and refuses 33 with the path of the too-deep value', () => {
    expect(refuseJson({ tags: nested(MAX_JSON_DEPTH - 1) })).toBeUndefined();
    expect(refuseJson({ tags: nested(MAX_JSON_DEPTH) })).toEqual({
      kind: 'field',
      detail: {
        field: `tags${'.0'.repeat(MAX_JSON_DEPTH - 1)}`,
        messages: [expect.stringContaining('nested deeper than 32 levels')],
      },
    });
  });

  it('refuses 2,000 levels without exhausting the stack', () => {
    expect(refuseJson(JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`))).toMatchObject({
      kind: 'field',
      detail: { field: `0${'.0'.repeat(31)}` },
    });
  });

  it('refuses U+0000 in a value or a field name, naming the field', () => {
    expect(refuseJson({ cashier_id: 'emp\u0000' })).toEqual({
      kind: 'field',
      detail: { field: 'cashier_id', messages: ['cashier_id must not contain the character U+0000'] },
    });
    expect(refuseJson({ tenders: [{ ['type\u0000']: 'cash' }] })).toEqual({
      kind: 'field',
      detail: { field: 'tenders.0', messages: ['a field name in tenders.0 must not contain the character U+0000'] },
    });
  });

  it('refuses a lone surrogate anywhere in a string, and takes every well-formed string', () => {
    fc.assert(
      fc.property(cleanText, loneSurrogate, cleanText, (before, lone, after) => {
        // Glued to a neighbour, the half may pair up into a valid character: only a lone one is refused.
        const text = `${before}${lone}${after}`;
        const wellFormed = Buffer.from(text, 'utf8').toString('utf8') === text;
        expect(refuseJson({ cashier_id: text }) === undefined).toBe(wellFormed);
      }),
    );
    fc.assert(
      fc.property(cleanText, (text) => expect(refuseJson({ cashier_id: text, nested: [text] })).toBeUndefined()),
    );
  });

  it('tells a number JSON cannot hold apart from a field to refuse', () => {
    expect(refuseJson({ a: [1, { b: Infinity }] })).toEqual({ kind: 'non-finite' });
  });
});

describe('refuseTexts', () => {
  it('names each path or query value that holds U+0000 or a lone surrogate, in lists too', () => {
    expect(refuseTexts({ id: '\u0000', state: ['AL', 'x\ud800'], limit: '10' })).toEqual([
      { field: 'id', messages: ['id must not contain the character U+0000'] },
      { field: 'state', messages: ['state must not contain an unpaired UTF-16 surrogate'] },
    ]);
  });
});
