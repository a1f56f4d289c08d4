import fc from 'fast-check';
import { parse, unparse } from 'papaparse';
import { csvChunks, FORMULA_START } from './csv';
import type { Cell, Column } from './export-columns';
import type { TransactionDetail } from '../../transactions/transaction.response.dto';

describe('CSV injection guard', () => {
  it.each(['=1+1', '+1', '-1+1', '@SUM(A1)', '\t=1', '\r=1', '-', '--5', '-5e3', '-1,5', '-0.05 ', '- 5'])(
    'guards %j',
    (cell) => {
      expect(FORMULA_START.test(cell)).toBe(true);
    },
  );

  it.each(['-5', '-0.05', '-10.00', '5', 'a=b', ' =1', 'Zoë', ''])('leaves %j as it is', (cell) => {
    expect(FORMULA_START.test(cell)).toBe(false);
  });
});

describe('csvChunks', () => {
  const columns: Column[] = [
    { name: 'id', value: (t) => t.id },
    { name: 'cents', value: (t) => t.calculation.cash_total_cents },
    { name: 'note', value: (t) => t.cashier_id },
  ];
  const row = (id: string, cents: number, cashier: string | null) =>
    ({ id, calculation: { cash_total_cents: cents }, cashier_id: cashier }) as TransactionDetail;
  async function* batches(...list: TransactionDetail[][]) {
    yield* list;
  }
  const collect = async (source: AsyncIterable<string>) => {
    const chunks: string[] = [];
    for await (const chunk of source) chunks.push(chunk);
    return chunks;
  };

  it('writes the header once, then a chunk per batch, each ending its last line', async () => {
    const chunks = await collect(
      csvChunks(columns, batches([row('a', -5, '=x')], [row('b', 0, 'say "hi", then\nleave'), row('c', 7, null)])),
    );
    expect(chunks).toEqual(['id,cents,note\r\na,-5,"\'=x"\r\n', 'b,0,"say ""hi"", then\nleave"\r\nc,7,\r\n']);
    expect(parse(chunks.join(''), { header: true, skipEmptyLines: true }).data).toEqual([
      { id: 'a', cents: '-5', note: "'=x" },
      { id: 'b', cents: '0', note: 'say "hi", then\nleave' },
      { id: 'c', cents: '7', note: '' },
    ]);
  });

  it('writes the header alone when there is no row', async () => {
    expect(await collect(csvChunks(columns, batches()))).toEqual(['id,cents,note\r\n']);
  });
});

describe('csvChunks against Papa.unparse, which wrote the export before', () => {
  // Texts made mostly of the characters that matter: quoting, formula starts, edges, a BOM.
  const text = fc.oneof(
    fc.string({
      unit: fc.constantFrom('a', '1', '-', '.', ' ', ',', '"', "'", '\r', '\n', '\t', '=', '+', '@', '\uFEFF', 'é'),
    }),
    fc.string(),
  );
  const cell: fc.Arbitrary<Cell> = fc.oneof(
    text,
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  );
  const width = 4;
  const columns: Column[] = Array.from({ length: width }, (_, i) => ({
    name: `c${i}`,
    value: (t) => (t as unknown as Cell[])[i],
  }));
  const papaparse = (rows: Cell[][]) =>
    `${unparse([columns.map((c) => c.name), ...rows], { escapeFormulae: FORMULA_START, newline: '\r\n' })}\r\n`;

  it('writes the same bytes for any cells', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 5 }),
        async (rows) => {
          const written: string[] = [];
          for await (const chunk of csvChunks(
            columns,
            (async function* () {
              yield rows as unknown as TransactionDetail[];
            })(),
          ))
            written.push(chunk);
          expect(written.join('')).toBe(papaparse(rows));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
