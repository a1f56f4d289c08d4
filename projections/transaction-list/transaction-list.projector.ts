import type { StoredEvent } from '../../src/event-store/event-store.port';
import type { Sql } from '../../src/event-store/sql';
import { BIAS_WINDOW, VELOCITY_WINDOW_MS, type MerchantHistory } from '../../src/fraud/fraud-score';
import type { RoundingMode } from '../../src/rounding/rounding-engine';
import type { TransactionRecordedData, TransactionType } from '../../src/transactions/transaction.events';
import { historyEntry, transactionView, type HistoryEntry, type TransactionDetail, type TransactionView } from '../../src/transactions/transaction-view';
import type { Projector } from '../projector';

/**
 * One row per transaction: the columns lists filter and sort on, the API view as `detail`, and the
 * transaction's entries in the chain as `history`. Inline, so a GET right after the POST sees it,
 * and so fraud scoring reads a merchant's history from here rather than scanning the log.
 */
export const transactionListProjector: Projector = {
  name: 'transaction-list',
  version: 1,
  mode: 'inline',
  handles: ['TransactionRecorded'],

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
  },

  async apply(event: StoredEvent, tx: Sql): Promise<void> {
    const data = event.data as TransactionRecordedData;
    const view = transactionView(data, event);
    const { calculation } = view;
    // The sale's own event creates the row; a replay of it changes nothing.
    await tx.query(
      `insert into rm_transactions (id, merchant_id, type, state, jurisdiction_id, payment_method, cashier_id, created_at,
         subtotal_cents, tax_total_cents, ledger_total_cents, cash_total_cents, rounding_delta_cents, cash_rounding_mode,
         compliance_status, fraud_score, risk_level, audit_hash, position, detail, history)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
       on conflict (id) do nothing`,
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
  },
};

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
  const deltas = await sql.query<{ delta: string }>(
    `select rounding_delta_cents as delta from rm_transactions
     where merchant_id = $1 and type = 'SALE' and rounding_delta_cents <> 0 and cash_rounding_mode = any($2)
     order by created_at desc, position desc limit $3`,
    [query.merchantId, query.symmetricModes, BIAS_WINDOW],
  );
  let cashierSales: number | null = null;
  if (query.cashierId !== null) {
    const [{ count }] = await sql.query<{ count: number }>(
      `select count(*)::int as count from rm_transactions
       where merchant_id = $1 and cashier_id = $2 and type = 'SALE' and created_at > $3`,
      [query.merchantId, query.cashierId, new Date(query.at.getTime() - VELOCITY_WINDOW_MS).toISOString()],
    );
    cashierSales = count;
  }
  return { recent_symmetric_deltas: deltas.map((row) => Number(row.delta)), cashier_sales_in_window: cashierSales };
}
