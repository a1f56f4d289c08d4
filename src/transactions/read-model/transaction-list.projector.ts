import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, lz4WhereSupported, prepared, type Sql } from '../../platform/event-store/sql';
import type { TransactionType } from '../transaction.events';
import { effectOf, historyEntry, type TransactionEffect, type TransactionRow } from './transaction-view';
import type { HistoryEntry, TransactionDetail, TransactionView } from '../transaction.response.dto';
import type { Projector } from '../../platform/projections/projector';

/**
 * One row per transaction (SALE, VOID, REFUND): the columns lists filter and sort on, the API view
 * as `detail`, and the transaction's entries in the chain as `history`. Async, from its checkpoint
 * after the append: a read by id that finds it behind the transaction's entries folds the stream
 * instead (transaction-reads.ts), and fraud scoring reads a merchant's history from here, recording
 * the position it reflected. The columns are the sale as calculated, for filters and fraud history;
 * an override, a void or a refund changes the sale's `detail` (its state and settlement) and `history` only.
 */
export const transactionListProjector: Projector = {
  name: 'transaction-list',
  version: 4,
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
    await tx.query(lz4WhereSupported('rm_transactions', ['detail', 'history']));
    // Lists (always of named merchants) and fraud history read a merchant's newest transactions first.
    await tx.query(
      'create index rm_transactions_merchant_created on rm_transactions (merchant_id, created_at desc, position desc)',
    );
    // The CSV export of every merchant pages through the whole table by (created_at, position).
    await tx.query('create index rm_transactions_created on rm_transactions (created_at, position)');
    // Fraud scoring reads both before every sale (sale-inputs.ts). Through the merchant's index it
    // visited every sale of the merchant in the window to find a cashier's, or 50 rounded cash
    // sales, so a sale cost more the busier its merchant was.
    await tx.query(
      `create index rm_transactions_rounded_sales on rm_transactions (merchant_id, created_at desc, position desc)
       include (rounding_delta_cents, cash_rounding_mode) where type = 'SALE' and rounding_delta_cents <> 0`,
    );
    await tx.query(
      "create index rm_transactions_cashier_sales on rm_transactions (merchant_id, cashier_id, created_at) where type = 'SALE'",
    );
  },

  async apply(events: readonly StoredEvent[], tx: Sql): Promise<void> {
    const records: TransactionRow[] = [];
    const changes: SaleChange[] = [];
    for (const event of events) {
      const { record, change } = effectOf(event);
      if (record) records.push(record);
      if (change) changes.push({ ...change, event });
    }
    // Records first: a replay may change a sale recorded in the same batch.
    await insertRecords(tx, records);
    await changeSales(tx, changes);
  },
};

type SaleChange = NonNullable<TransactionEffect['change']> & { event: StoredEvent };

async function insertRecords(tx: Sql, rows: TransactionRow[]): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  // A replay of the record's own event changes nothing. A record id is unique in the log: the
  // append that drew it checked (transaction-reads.ts, assertRecordIdFree).
  await tx.query(prepared(`${insertRows('rm_transactions', rows, params)} on conflict (id) do nothing`), params);
}

/**
 * Folds overrides, voids and refunds into their sales' rows in position order, as if applied one by
 * one: the rows read in one query, written back in one. An event already in a sale's history was
 * applied before.
 */
async function changeSales(tx: Sql, changes: SaleChange[]): Promise<void> {
  if (changes.length === 0) return;
  const found = await tx.query<{ id: string; detail: TransactionView; history: HistoryEntry[] }>(
    'select id, detail, history from rm_transactions where id = any($1)',
    [[...new Set(changes.map((change) => change.saleId))]],
  );
  const sales = new Map(found.map((row) => [row.id, row]));
  const changed = new Set<string>();
  for (const { saleId, event, apply } of changes) {
    const sale = sales.get(saleId)!;
    if (sale.history.some((entry) => entry.chain_position === event.position)) continue;
    sale.detail = apply(sale.detail);
    sale.history = [...sale.history, historyEntry(event)];
    changed.add(saleId);
  }
  if (changed.size === 0) return;
  const rows = [...changed].map((id) => sales.get(id)!);
  await tx.query(
    `update rm_transactions t set detail = u.detail::jsonb, history = u.history::jsonb
     from unnest($1::text[], $2::text[], $3::text[]) as u(id, detail, history) where t.id = u.id`,
    [
      rows.map((row) => row.id),
      rows.map((row) => JSON.stringify(row.detail)),
      rows.map((row) => JSON.stringify(row.history)),
    ],
  );
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
export async function listTransactions(
  sql: Sql,
  filter: TransactionFilter,
): Promise<{ transactions: TransactionView[]; total: number }> {
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
  const [{ total }] = await sql.query<{ total: number }>(
    `select count(*)::int as total from rm_transactions ${whereClause}`,
    params,
  );
  const rows = await sql.query<{ detail: TransactionView }>(
    `select detail from rm_transactions ${whereClause}
     order by created_at desc, position desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, filter.limit, filter.offset],
  );
  return { transactions: rows.map((row) => row.detail), total };
}

/**
 * The transaction as its row has it, if the log holds the entry the row names: at its position, with
 * its hash, recording this id (one lookup by the log's primary key). A row without its entry, put
 * there or left behind by SQL, is no transaction: the log is the truth.
 */
export async function findTransaction(sql: Sql, id: string): Promise<TransactionDetail | undefined> {
  const [row] = await sql.query<{ detail: TransactionView; history: HistoryEntry[] }>(
    prepared(`select t.detail, t.history from rm_transactions t where t.id = $1 and exists (
       select 1 from events e where e.position = t.position and e.hash = t.audit_hash and e.data->>'transaction_id' = t.id)`),
    [id],
  );
  return row && { ...row.detail, history: row.history };
}
