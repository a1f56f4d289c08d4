import { unparse, type UnparseConfig } from 'papaparse';
import type { TransactionDetail } from '../../transactions';
import type { Cell, Column } from './export-columns';

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (or a tab
 * or CR before one) as a formula, so such a cell gets a leading `'`. A cell that is a plain negative
 * number (`-5`, `-0.05`) is left as it is: it cannot run anything, and quoted it would stop summing.
 */
export const FORMULA_START = /^(?!-\d+(\.\d+)?$)[=+\-@\t\r]/;

const CONFIG: UnparseConfig = { escapeFormulae: FORMULA_START, newline: '\r\n' };

const lines = (rows: Cell[][]): string => `${unparse(rows, CONFIG)}\r\n`;

/** A whole file at once, the header line then a line per transaction: for a few rows (the documented example). */
export const csvText = (columns: readonly Column[], rows: readonly TransactionDetail[]): string =>
  lines([columns.map((c) => c.name), ...rows.map((t) => columns.map((c) => c.value(t)))]);

/**
 * The header line, then a chunk of lines per batch of rows: only one batch is ever held, whatever the
 * length of the file. A file without rows is the header line alone.
 */
export async function* csvChunks(columns: readonly Column[], batches: AsyncIterable<TransactionDetail[]>): AsyncGenerator<string> {
  let header = lines([columns.map((c) => c.name)]);
  for await (const batch of batches) {
    yield header + lines(batch.map((t) => columns.map((c) => c.value(t))));
    header = '';
  }
  if (header) yield header;
}
