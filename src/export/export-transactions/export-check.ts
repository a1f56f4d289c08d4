import { canonicalJson } from '@crcs/tlog';
import type { TransactionDetail } from '../../transactions/transaction.response.dto';
import { csvCell } from './csv';
import { columnNamed } from './export-columns';

/** A cell of the export that is not what the log says, or a row the log has no transaction for. */
export interface ExportDifference {
  /** The row in the file, its header being row 1 (a cell may hold line breaks, so rows are not lines). */
  row: number;
  transaction_id: string;
  field: string;
  /** The cell as the file holds it (unquoted). */
  exported: string;
  /** The cell as the export would write it from the log; null when the log has no such transaction or the file no such column. */
  from_log: string | null;
}

export interface ExportCheck {
  row_count: number;
  difference_count: number;
  differences: ExportDifference[];
}

/** A cell as it reads once its quotes are taken off, which is how a CSV reader hands it over. */
function unquoted(cell: string): string {
  return cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
}

/**
 * A `_json` cell is written from the read model's jsonb, whose keys PostgreSQL orders its own way:
 * the same records in another key order are the same cell.
 */
function sameJson(field: string, exported: string, fromLog: string | null): boolean {
  if (!field.endsWith('_json') || fromLog === null) return false;
  try {
    return canonicalJson(JSON.parse(exported)) === canonicalJson(JSON.parse(fromLog));
  } catch {
    return false;
  }
}

/**
 * Each row of a CSV export (`records`: its header, then its rows, cells unquoted) against what
 * the export writes for the same transaction folded from the log: every cell of every row, in
 * whichever mode, since a column means the same in all of them. A column the export does not
 * have is a difference on every row, and so is a row whose transaction the log does not hold. Rows
 * the file lacks are not found here: the file's filters (merchant, dates, tender, status) are not
 * in it.
 */
export function checkExport(
  records: readonly string[][],
  transactions: ReadonlyMap<string, TransactionDetail>,
): ExportCheck {
  const [header = [], ...rows] = records;
  const idColumn = header.indexOf('transaction_id');
  if (idColumn < 0) throw new Error('the file has no transaction_id column: it is not a transaction export');
  const columns = header.map(columnNamed);
  const differences: ExportDifference[] = [];
  rows.forEach((cells, i) => {
    const row = i + 2;
    const id = cells[idColumn] ?? '';
    const transaction = transactions.get(id);
    if (!transaction) {
      differences.push({ row, transaction_id: id, field: 'transaction_id', exported: id, from_log: null });
      return;
    }
    header.forEach((field, c) => {
      const column = columns[c];
      const fromLog = column ? unquoted(csvCell(column.value(transaction))) : null;
      const exported = cells[c] ?? '';
      if (exported !== fromLog && !sameJson(field, exported, fromLog))
        differences.push({ row, transaction_id: id, field, exported, from_log: fromLog });
    });
  });
  return { row_count: rows.length, difference_count: differences.length, differences };
}
