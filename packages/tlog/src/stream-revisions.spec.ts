import fc from 'fast-check';
import { StreamRevisions } from './stream-revisions';

/** Stream ids of every shape the packing treats apart: shared prefixes, long or wide suffixes, no dash, a dash at either end. */
const streamId = fc.oneof(
  fc
    .integer({ min: 0, max: 40 })
    .map((i) => `transaction-TXN-2026-11-21-${i.toString(36).toUpperCase().padStart(8, '0')}`),
  fc.integer({ min: 0, max: 40 }).map((i) => `checkpoint-${i}`),
  fc.constantFrom(
    '',
    '-',
    'a-',
    '-a',
    'a',
    'a-b-',
    'x-123456789012',
    'x-1234567890123',
    'x-\u0000',
    'x-',
    'x-\u00ff\u00fe',
    'x-\u0100',
    'x-€',
    'x-\ud83d',
  ),
  fc.string({ maxLength: 16 }),
  fc.uuid().map((id) => `merchant-${id}`),
);
const revision = fc.oneof(
  fc.integer({ min: -3, max: 50 }),
  fc.constantFrom(-0x80000000, 0x7fffffff, 0x80000000, -0x80000001, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
);
const operation = fc.oneof(
  fc.record({ op: fc.constant('set' as const), id: streamId, revision }),
  fc.record({ op: fc.constant('get' as const), id: streamId }),
  fc.record({ op: fc.constant('delete' as const), id: streamId }),
);

describe('StreamRevisions', () => {
  it('answers as a Map<string, number> does, whatever the ids and revisions', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
        const packed = new StreamRevisions();
        const map = new Map<string, number>();
        // Every answer of both, compared in one assertion: one per operation cost more than the packing under test.
        const answers: { packed: (number | undefined)[]; map: (number | undefined)[] } = { packed: [], map: [] };
        for (const o of operations) {
          if (o.op === 'set') {
            packed.set(o.id, o.revision);
            map.set(o.id, o.revision);
          } else if (o.op === 'delete') {
            packed.delete(o.id);
            map.delete(o.id);
          }
          answers.packed.push(packed.get(o.id));
          answers.map.push(map.get(o.id));
        }
        for (const id of map.keys()) {
          answers.packed.push(packed.get(id));
          answers.map.push(map.get(id));
        }
        expect(answers.packed).toStrictEqual(answers.map);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps every stream of a long log as it grows, shared and unique prefixes and odd characters included', () => {
    const packed = new StreamRevisions();
    const map = new Map<string, number>();
    const ids = Array.from({ length: 30_000 }, (_, i) =>
      i % 3 === 0
        ? `transaction-TXN-2026-11-${(i % 28) + 1}-${i.toString(36).padStart(8, '0')}`
        : i % 3 === 1
          ? `tip-${crypto.randomUUID()}`
          : `s-${String.fromCharCode(i % 256).repeat(12)}${i}`.slice(0, 14),
    );
    const answers: { packed: (number | undefined)[]; map: (number | undefined)[] } = { packed: [], map: [] };
    ids.forEach((id, i) => {
      const next = (map.get(id) ?? 0) + 1 + (i % 2);
      answers.packed.push(packed.get(id));
      answers.map.push(map.get(id));
      packed.set(id, next);
      map.set(id, next);
    });
    for (const [id, r] of map) {
      answers.packed.push(packed.get(id));
      answers.map.push(r);
    }
    expect(answers.packed).toStrictEqual(answers.map);
  });
});
