import type { StoredEvent } from '../../platform/event-store/event-store.port';
import type { Sql } from '../../platform/event-store/sql';
import { BIAS_WINDOW, VELOCITY_WINDOW_MS, type MerchantHistory } from '../../rules/fraud-score';
import type { RoundingMode } from '../../rules/rounding-engine';
import type { TransactionEvent, TransactionType } from '../transaction.events';
import { RecordIdTakenError } from '../../platform/ids';
import { historyEntry, transactionView, withOverride, withRefund, withVoid, type RecordData } from './transaction-view';
import type { HistoryEntry, TransactionDetail, TransactionView } from '../transaction.response.dto';
import type { Projector } from '../../platform/projections/projector';

/**
 * One row per transaction (SALE, VOID, REFUND): the columns lists filter and sort on, the API view
 * as `detail`, and the transaction's entries in the chain as `history`. Inline, so a GET right after
 * the POST sees it, and so fraud scoring reads a merchant's history from here rather than scanning
 * the log. The columns are the sale as calculated, for filters and fraud history; an override, a
 * void or a refund changes the sale's `detail` (its state and settlement) and `history` only.
 */
export const transactionListProjector: Projector = {
  name: 'transaction-list',
  version: 3,
  mode: 'inline',
  handles: ['TransactionRecorded', 'OverrideApplied', 'TransactionVoided', 'RefundIssued'],

  async reset(tx: Sql): Promise<void> {
    await tx.query('drop table if exists rm_transactions');
    await tx.query(
      `create table rm_transactions (
         id text primary key,
         merchant_id text not null,
         type text not null,
         state char(2),
         jurisdiction_id text not null,
         payment_method text not null,
         cashier_id text,
         created_at timestamptz not null,
         subtotal_cents bigint not null,
         tax_total_cents bigint not null,
         ledger_total_cents bigint not null,
         cash_total_cents bigint not null,
         rounding_delta_cents bigint not null,
         cash_rounding_mode text not null,
         compliance_status text not null,
         fraud_score int not null,
         risk_level text not null,
         audit_hash char(64) not null,
         position bigint not null,
         detail jsonb not null,
         history jsonb not null
       )`,
    );
    // Lists (always of named merchants) and fraud history read a merchant's newest transactions first.
    await tx.query('create index rm_transactions_merchant_created on rm_transactions (merchant_id, created_at desc, position desc)');
    // The CSV export of every merchant pages through the whole table by (created_at, position).
    await tx.query('create index rm_transactions_created on rm_transactions (created_at, position)');
  },

  async apply(event: StoredEvent, tx: Sql): Promise<void> {
    const { type, data } = event as unknown as TransactionEvent;
    switch (type) {
      case 'TransactionRecorded':
        return insertRecord(tx, data, event);
      case 'OverrideApplied':
        return updateSale(tx, data.transaction_id, event, (sale) => withOverride(sale, data, event));
      case 'TransactionVoided':
        await insertRecord(tx, data, event);
        return updateSale(tx, data.original_transaction_id, event, (sale) => withVoid(sale, data));
      case 'RefundIssued':
        await insertRecord(tx, data, event);
        return updateSale(tx, data.original_transaction_id, event, (sale) => withRefund(sale, data));
    }
  },
};

async function insertRecord(tx: Sql, data: RecordData, event: StoredEvent): Promise<void> {
  const view = transactionView(data, event);
  const { calculation } = view;
  // A replay of the record's own event changes nothing; another record under the same id is a clash
  // of random ids, refused so that the append rolls back and is retried with a new id.
  const inserted = await tx.query(
    `insert into rm_transactions (id, merchant_id, type, state, jurisdiction_id, payment_method, cashier_id, created_at,
       subtotal_cents, tax_total_cents, ledger_total_cents, cash_total_cents, rounding_delta_cents, cash_rounding_mode,
       compliance_status, fraud_score, risk_level, audit_hash, position, detail, history)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
     on conflict (id) do update set id = excluded.id where rm_transactions.position = excluded.position
     returning id`,
    [
      view.id,
      view.merchant_id,
      view.type,
      view.location.state,
      calculation.jurisdiction,
      calculation.payment_method,
      view.cashier_id,
      view.created_at,
      calculation.subtotal_cents,
      calculation.tax_total_cents,
      calculation.ledger_total_cents,
      calculation.cash_total_cents,
      calculation.rounding_delta_cents,
      calculation.cash_rounding_mode,
      view.compliance.compliance_status,
      view.fraud_score,
      view.risk_level,
      view.auditHash,
      view.chain_position,
      JSON.stringify(view),
      JSON.stringify([historyEntry(event)]),
    ],
  );
  if (inserted.length === 0) throw new RecordIdTakenError(view.id);
}

/** Folds an event of the sale's stream into its row; an event already in its history was applied before. */
async function updateSale(tx: Sql, saleId: string, event: StoredEvent, change: (sale: TransactionView) => TransactionView): Promise<void> {
  const [row] = await tx.query<{ detail: TransactionView; history: HistoryEntry[] }>('select detail, history from rm_transactions where id = $1', [saleId]);
  if (row.history.some((entry) => entry.chain_position === event.position)) return;
  await tx.query('update rm_transactions set detail = $2, history = $3 where id = $1', [
    saleId,
    JSON.stringify(change(row.detail)),
    JSON.stringify([...row.history, historyEntry(event)]),
  ]);
}

export interface TransactionFilter {
  /** The merchants the caller may see; undefined: all of them. */
  merchantIds?: readonly string[];
  state?: string;
  type?: TransactionType;
  limit: number;
  offset: number;
}

/** Newest first, with the count of all matches for paging. */
export async function listTransactions(sql: Sql, filter: TransactionFilter): Promise<{ transactions: TransactionView[]; total: number }> {
  const params: unknown[] = [];
  const where: string[] = [];
  const condition = (clause: (param: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.merchantIds !== undefined) condition((p) => `merchant_id = any(${p})`, filter.merchantIds);
  if (filter.state !== undefined) condition((p) => `state = ${p}`, filter.state);
  if (filter.type !== undefined) condition((p) => `type = ${p}`, filter.type);
  const whereClause = where.length > 0 ? `where ${where.join(' and ')}` : '';
  const [{ total }] = await sql.query<{ total: number }>(`select count(*)::int as total from rm_transactions ${whereClause}`, params);
  const rows = await sql.query<{ detail: TransactionView }>(
    `select detail from rm_transactions ${whereClause}
     order by created_at desc, position desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, filter.limit, filter.offset],
  );
  return { transactions: rows.map((row) => row.detail), total };
}

export async function findTransaction(sql: Sql, id: string): Promise<TransactionDetail | undefined> {
  const [row] = await sql.query<{ detail: TransactionView; history: HistoryEntry[] }>(
    'select detail, history from rm_transactions where id = $1',
    [id],
  );
  return row && { ...row.detail, history: row.history };
}

export interface HistoryQuery {
  merchantId: string;
  cashierId: string | null;
  /** The instant of the sale being scored. */
  at: Date;
  /** Modes under which rounding up and down are equally likely by chance. */
  symmetricModes: readonly RoundingMode[];
}

/** What fraud scoring needs from the merchant's recent sales; both reads use the (merchant_id, created_at) index. */
export async function merchantHistory(sql: Sql, query: HistoryQuery): Promise<MerchantHistory> {
  // One round trip for both reads: this runs on every sale.
  const [row] = await sql.query<{ deltas: string[] | null; cashier_sales: number | null }>(
    `select
       (select array_agg(delta order by created_at desc, position desc) from (
          select rounding_delta_cents as delta, created_at, position from rm_transactions
          where merchant_id = $1 and type = 'SALE' and rounding_delta_cents <> 0 and cash_rounding_mode = any($2)
          order by created_at desc, position desc limit $3) recent) as deltas,
       (select count(*)::int from rm_transactions
        where $4::text is not null and merchant_id = $1 and cashier_id = $4 and type = 'SALE' and created_at > $5) as cashier_sales`,
    [query.merchantId, query.symmetricModes, BIAS_WINDOW, query.cashierId, new Date(query.at.getTime() - VELOCITY_WINDOW_MS).toISOString()],
  );
  return {
    recent_symmetric_deltas: (row.deltas ?? []).map(Number),
    cashier_sales_in_window: query.cashierId === null ? null : row.cashier_sales,
  };
}
