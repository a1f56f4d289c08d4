import type { TransactionRow } from './transaction-view';

/** A field of a row of rm_transactions that is not what the log makes it. */
export interface RowDifference {
  transaction_id: string;
  /** The position of the entry that recorded the transaction, as the log has it (else as the row says). */
  position: number;
  /** A column, or a path into `detail` or `history` (`detail.calculation.cash_total_cents`); `row` for a row missing from one side. */
  field: string;
  /** JSON of the value stored; null when the read model has no such row. */
  stored: string | null;
  /** JSON of the value the log gives; null when the log records no such transaction. */
  from_log: string | null;
}

/** A row as `to_jsonb` reads it: its columns as JSON, `detail` and `history` as the objects stored. */
export type StoredRow = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Each field where the stored row and the row the log folds to differ, down to the leaf: a changed
 * total names the total, not the whole detail. Times are compared as instants (PostgreSQL writes a
 * timestamptz in a layout of its own), everything else as JSON.
 */
export function rowDifferences(
  id: string,
  stored: StoredRow | undefined,
  expected: TransactionRow | undefined,
): RowDifference[] {
  const position = Number(expected?.position ?? stored?.position);
  if (!stored || !expected) {
    return [
      {
        transaction_id: id,
        position,
        field: 'row',
        stored: stored ? JSON.stringify(stored) : null,
        from_log: expected ? JSON.stringify(expected) : null,
      },
    ];
  }
  const found: RowDifference[] = [];
  const compare = (field: string, have: unknown, want: unknown): void => {
    if (isObject(have) && isObject(want)) {
      for (const key of new Set([...Object.keys(have), ...Object.keys(want)]))
        compare(`${field}.${key}`, have[key], want[key]);
    } else if (Array.isArray(have) && Array.isArray(want) && have.length === want.length) {
      have.forEach((item, i) => compare(`${field}[${i}]`, item, want[i]));
    } else if (JSON.stringify(have) !== JSON.stringify(want)) {
      found.push({
        transaction_id: id,
        position,
        field,
        stored: have === undefined ? null : JSON.stringify(have),
        from_log: want === undefined ? null : JSON.stringify(want),
      });
    }
  };
  // As JSON, as the row stores it: a field the view leaves undefined is not stored at all.
  const want = JSON.parse(JSON.stringify(expected)) as Record<string, unknown>;
  for (const key of new Set([...Object.keys(stored), ...Object.keys(want)])) {
    if (key === 'created_at' && Date.parse(String(stored[key])) === Date.parse(String(want[key]))) continue;
    compare(key, stored[key], want[key]);
  }
  return found;
}
