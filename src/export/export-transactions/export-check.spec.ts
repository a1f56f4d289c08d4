import fc from 'fast-check';
import { parse } from 'papaparse';
import { checkExport } from './export-check';
import { EXAMPLE_SALE, EXPORT_EXAMPLES } from './export-example';
import { EXPORT_MODES } from './export-columns';

const records = (mode: (typeof EXPORT_MODES)[number]) =>
  parse<string[]>(EXPORT_EXAMPLES[mode], { skipEmptyLines: true }).data;
const sameJson = (a: string, b: string) => {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
};
const log = new Map([[EXAMPLE_SALE.id, EXAMPLE_SALE]]);

describe('checking an export against the log', () => {
  it.each(EXPORT_MODES)('finds every cell of a %s row as the log gives it', (mode) => {
    expect(checkExport(records(mode), log)).toEqual({ row_count: 1, difference_count: 0, differences: [] });
  });

  it('names any one edited cell of a full row, and only it, with the value exported and the log’s', () => {
    const [header, row] = records('full');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: header.length - 1 }), fc.string(), (column, value) => {
        // A `_json` cell is compared as JSON: the same value written with other spaces is no edit.
        fc.pre(value !== row[column] && !(header[column].endsWith('_json') && sameJson(value, row[column])));
        const edited = row.map((cell, i) => (i === column ? value : cell));
        expect(checkExport([header, edited], log).differences).toEqual([
          { row: 2, transaction_id: EXAMPLE_SALE.id, field: header[column], exported: value, from_log: row[column] },
        ]);
      }),
    );
  });

  it('names a row the log has no transaction for, and a column the export does not have', () => {
    const [header, row] = records('summary');
    expect(
      checkExport([header, row.map((cell, i) => (i === 0 ? 'TXN-2026-11-21-FORGED00' : cell))], log).differences,
    ).toEqual([
      {
        row: 2,
        transaction_id: 'TXN-2026-11-21-FORGED00',
        field: 'transaction_id',
        exported: 'TXN-2026-11-21-FORGED00',
        from_log: null,
      },
    ]);
    expect(
      checkExport(
        [
          [...header, 'discount_cents'],
          [...row, '0'],
        ],
        log,
      ).differences,
    ).toEqual([{ row: 2, transaction_id: EXAMPLE_SALE.id, field: 'discount_cents', exported: '0', from_log: null }]);
  });
});
