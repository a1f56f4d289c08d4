import fc from 'fast-check';
import { entryBundle, parseEntryBundle, parseTilePath, tilePath, tileWithin } from './tiles';

describe('tile paths', () => {
  it('write the index in x-prefixed 3-digit groups, as tlog-tiles shows, and parse back', () => {
    expect(tilePath({ level: 0, index: 1234067, width: 256 })).toBe('tile/0/x001/x234/067');
    expect(tilePath({ level: 'entries', index: 0, width: 5 })).toBe('tile/entries/000.p/5');
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 63 }), fc.constant('entries' as const)),
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 1, max: 256 }),
        (level, index, width) => {
          expect(parseTilePath(tilePath({ level, index, width }).slice('tile/'.length))).toEqual({
            level,
            index,
            width,
          });
        },
      ),
    );
  });

  it.each([
    '0/1234',
    '0/01',
    '00/000',
    '0/000.p/0',
    '0/000.p/256',
    '0/000.p/01',
    '64/000',
    '0/x000/001',
    '0/000/',
    'data/000',
  ])('refuse %s', (path) => {
    expect(() => parseTilePath(path)).toThrow();
  });

  it('place a tile within a tree only when all its hashes are (tlog-tiles: 70,000 leaves)', () => {
    expect(tileWithin({ level: 0, index: 272, width: 256 }, 70_000)).toBe(true);
    expect(tileWithin({ level: 0, index: 273, width: 112 }, 70_000)).toBe(true);
    expect(tileWithin({ level: 0, index: 273, width: 113 }, 70_000)).toBe(false);
    expect(tileWithin({ level: 1, index: 1, width: 17 }, 70_000)).toBe(true);
    expect(tileWithin({ level: 1, index: 1, width: 18 }, 70_000)).toBe(false);
    expect(tileWithin({ level: 2, index: 0, width: 1 }, 70_000)).toBe(true);
    expect(tileWithin({ level: 3, index: 0, width: 1 }, 70_000)).toBe(false);
  });
});

describe('entry bundles', () => {
  it('length-prefix each entry (big-endian uint16) and parse back', () => {
    expect(entryBundle([Buffer.from('ab'), Buffer.alloc(0)])).toEqual(Buffer.from([0, 2, 0x61, 0x62, 0, 0]));
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 })), (entries) => {
        expect(parseEntryBundle(entryBundle(entries.map((e) => Buffer.from(e))))).toEqual(
          entries.map((e) => Buffer.from(e)),
        );
      }),
    );
    expect(() => parseEntryBundle(Buffer.from([0, 3, 1, 2]))).toThrow('the entry bundle ends inside an entry');
  });
});
