import type { TransactionDetail } from '../../transactions/transaction.response.dto';
import type { Cell, Column } from './export-columns';

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (or a tab
 * or CR before one) as a formula, so such a cell gets a leading `'`. A cell that is a plain negative
 * number (`-5`, `-0.05`) is left as it is: it cannot run anything, and quoted it would stop summing.
 */
export const FORMULA_START = /^(?!-\d+(\.\d+)?$)[=+\-@\t\r]/;

/** RFC 4180 quotes a cell holding a comma, a quote or a line break; a BOM and an edge space are quoted too, as papaparse did. */
const NEEDS_QUOTES = /[",\r\n\uFEFF]|^ | $/;
const QUOTE = /"/g;

/**
 * One cell, written as `Papa.unparse` with `escapeFormulae: FORMULA_START` wrote it (csv.spec.ts
 * checks the two agree): null empty, numbers and booleans as `String` writes them and never
 * guarded, a guarded text cell always quoted. Written here rather than through papaparse, whose
 * per-cell option checks were the largest cost of the service's own in a profile of the export
 * (docs/benchmarks.md).
 */
export function csvCell(value: Cell | undefined): string {
  if (value == null) return '';
  if (typeof value !== 'string') return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replace(QUOTE, '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replace(QUOTE, '""')}"` : value;
}

/** A line per row, each cell as its column writes it, each line ended by CRLF: one string for the lot. */
function lines(columns: readonly Column[], rows: readonly TransactionDetail[]): string {
  let text = '';
  for (const row of rows) {
    text += csvCell(columns[0].value(row));
    for (let i = 1; i < columns.length; i++) text += ',' + csvCell(columns[i].value(row));
    text += '\r\n';
  }
  return text;
}

const headerLine = (columns: readonly Column[]): string => `${columns.map((c) => csvCell(c.name)).join(',')}\r\n`;

/** A whole file at once, the header line then a line per transaction: for a few rows (the documented example). */
export const csvText = (columns: readonly Column[], rows: readonly TransactionDetail[]): string =>
  headerLine(columns) + lines(columns, rows);

/**
 * The header line, then one string per batch of rows, its lines written straight into it (one
 * write to the socket per batch): only one batch is ever held, whatever the length of the file. A
 * file without rows is the header line alone.
 */
export async function* csvChunks(
  columns: readonly Column[],
  batches: AsyncIterable<TransactionDetail[]>,
): AsyncGenerator<string> {
  let header = headerLine(columns);
  for await (const batch of batches) {
    yield header + lines(columns, batch);
    header = '';
  }
  if (header) yield header;
}
