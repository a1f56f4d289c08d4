import type { InstantRange } from '../../platform/instant-range';
import type { Sql } from '../../platform/event-store/sql';
import type { TenderType } from '../../rules/rounding-engine';
import type { ComplianceStatus } from '../transaction.events';
import type { HistoryEntry, TransactionDetail, TransactionView } from '../transaction.response.dto';

export const EXPORT_BATCH = 1000;

export interface ExportFilter extends InstantRange {
  /** undefined: every merchant. */
  merchantId?: string;
  paymentMethod?: TenderType;
  complianceStatus?: ComplianceStatus;
  /** Only records at log positions up to this one: those the read model reflected when the export began. */
  upTo?: number;
}

interface Row {
  detail: TransactionView;
  history: HistoryEntry[];
  /** created_at as PostgreSQL wrote it, so the next batch starts exactly after it, to the microsecond. */
  keyset_at: string;
  position: string;
}

/**
 * The read model's rows in (created_at, position) order, a batch at a time by keyset: each batch is
 * one short query on an index (rm_transactions_created, or rm_transactions_merchant_created for one
 * merchant), so memory stays at one batch, a deep page costs what the first does, and no connection
 * or transaction is held for the whole download.
 */
export async function* exportRows(
  sql: Sql,
  filter: ExportFilter,
  batchSize = EXPORT_BATCH,
): AsyncGenerator<TransactionDetail[]> {
  const { text, params } = batchQuery(filter, batchSize);
  let keyset = FIRST_KEYSET;
  for (;;) {
    const rows = await sql.query<Row>(text, [...params, ...keyset]);
    if (rows.length > 0) yield rows.map(withHistory);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    keyset = [last.keyset_at, last.position];
  }
}

/**
 * The detail record with its history: the parsed `detail` belongs to this batch alone, so it is
 * completed in place; a copy of its forty fields a row was a cost the export's profile showed.
 */
function withHistory({ detail, history }: Row): TransactionDetail {
  return Object.assign(detail, { history });
}

/** Before every row: the keyset the first batch starts after. */
export const FIRST_KEYSET: readonly [string, string] = ['-infinity', '0'];

/** One batch's statement; its last two parameters, to append to `params`, are the keyset to start after. */
export function batchQuery(filter: ExportFilter, batchSize: number): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = [];
  const condition = (clause: (param: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.merchantId !== undefined) condition((p) => `merchant_id = ${p}`, filter.merchantId);
  if (filter.from !== undefined) condition((p) => `created_at >= ${p}`, filter.from.toISOString());
  if (filter.before !== undefined) condition((p) => `created_at < ${p}`, filter.before.toISOString());
  if (filter.paymentMethod !== undefined) condition((p) => `payment_method = ${p}`, filter.paymentMethod);
  if (filter.complianceStatus !== undefined) condition((p) => `compliance_status = ${p}`, filter.complianceStatus);
  if (filter.upTo !== undefined) condition((p) => `position <= ${p}`, filter.upTo);
  const after = params.length + 1;
  where.push(`(created_at, position) > ($${after}::timestamptz, $${after + 1}::bigint)`);
  // The text column has a name of its own: `order by created_at` would otherwise sort by it, not by the index.
  const text = `select detail, history, created_at::text as keyset_at, position from rm_transactions
     where ${where.join(' and ')} order by created_at, position limit ${batchSize}`;
  return { text, params };
}
