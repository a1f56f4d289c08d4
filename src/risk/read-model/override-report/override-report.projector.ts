import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import { insertRows, prepared, type Sql } from '../../../platform/event-store/sql';
import { NO_OVERRIDES, TOP_EMPLOYEES, type OverrideActivity, type OverrideEmployee } from '../../override-analysis';
import type { OverrideAppliedData, OverrideReason } from '../../../transactions/transaction.events';
import { addToRows } from '../../../platform/projections/counters';
import type { Projector } from '../../../platform/projections/projector';

/**
 * Every override as a row (the override report), and per merchant, employee and reason the totals its
 * override patterns add up from. The merchant is the sale's, from the event's metadata: every sale
 * change names it (SaleChanges), and the override's data does not.
 */
export const overrideReportProjector: Projector = {
  name: 'override-report',
  version: 1,
  handles: ['OverrideApplied'],

  async reset(tx: Sql): Promise<void> {
    await tx.query('drop table if exists rm_overrides');
    await tx.query('drop table if exists rm_override_totals');
    await tx.query(
      `create table rm_overrides (
         override_id text primary key,
         merchant_id text not null,
         transaction_id text not null,
         employee_id text not null,
         employee_name text not null,
         reason text not null,
         calculated_cash_total_cents bigint not null,
         previous_cash_total_cents bigint not null,
         new_cash_total_cents bigint not null,
         delta_cents bigint not null,
         created_at timestamptz not null,
         audit_hash char(64) not null,
         chain_position bigint not null
       )`,
    );
    await tx.query(
      'create index rm_overrides_merchant_created on rm_overrides (merchant_id, created_at, chain_position)',
    );
    await tx.query('create index rm_overrides_created on rm_overrides (created_at, chain_position)');
    await tx.query(
      `create table rm_override_totals (
         merchant_id text not null,
         employee_id text not null,
         reason text not null,
         overrides int not null,
         raised int not null,
         lowered int not null,
         delta_cents bigint not null,
         employee_name text not null,
         last_position bigint not null,
         primary key (merchant_id, employee_id, reason)
       )`,
    );
  },

  async apply(events: readonly StoredEvent[], tx: Sql): Promise<void> {
    const overrides = events.map((event) => {
      const data = event.data as OverrideAppliedData;
      return {
        data,
        merchant_id: event.metadata.merchantId!,
        delta: data.new_cash_total_cents - data.calculated_cash_total_cents,
        event,
      };
    });
    const params: unknown[] = [];
    const rows = overrides.map(({ data, merchant_id: merchantId, delta, event }) => ({
      override_id: data.override_id,
      merchant_id: merchantId,
      transaction_id: data.transaction_id,
      employee_id: data.employee_id,
      employee_name: data.employee_name,
      reason: data.reason,
      calculated_cash_total_cents: data.calculated_cash_total_cents,
      previous_cash_total_cents: data.previous_cash_total_cents,
      new_cash_total_cents: data.new_cash_total_cents,
      delta_cents: delta,
      created_at: data.created_at,
      audit_hash: event.hash,
      chain_position: event.position,
    }));
    await tx.query(
      prepared(`${insertRows('rm_overrides', rows, params)} on conflict (override_id) do nothing`),
      params,
    );
    await addToRows(
      tx,
      'rm_override_totals',
      overrides.map(({ data, merchant_id: merchantId, delta, event }) => ({
        key: { merchant_id: merchantId, employee_id: data.employee_id, reason: data.reason },
        counters: { overrides: 1, raised: Number(delta > 0), lowered: Number(delta < 0), delta_cents: delta },
        position: event.position,
        latest: { employee_name: data.employee_name },
      })),
    );
  },
};

interface TotalsRow {
  merchant_id: string;
  employee_id: string;
  reason: OverrideReason;
  overrides: number;
  raised: number;
  lowered: number;
  delta_cents: string;
  employee_name: string;
}

/** The override activity of one merchant, or of every merchant (`null`), by merchant id. */
export async function overrideActivity(sql: Sql, merchantId: string | null): Promise<Map<string, OverrideActivity>> {
  // In position order, so that the last row read of an employee carries the latest name.
  const rows = await sql.query<TotalsRow>(
    'select * from rm_override_totals where ($1::text is null or merchant_id = $1) order by last_position',
    [merchantId],
  );
  const activity = new Map<string, OverrideActivity>();
  const employees = new Map<string, Map<string, OverrideEmployee>>();
  for (const row of rows) {
    const delta = Number(row.delta_cents);
    const merchant = activity.get(row.merchant_id) ?? {
      ...NO_OVERRIDES,
      by_reason: { ...NO_OVERRIDES.by_reason },
      employees: [],
    };
    merchant.overrides += row.overrides;
    merchant.raised += row.raised;
    merchant.lowered += row.lowered;
    merchant.total_delta_cents += delta;
    merchant.by_reason[row.reason] += row.overrides;
    activity.set(row.merchant_id, merchant);

    const staff = employees.get(row.merchant_id) ?? new Map<string, OverrideEmployee>();
    const employee = staff.get(row.employee_id) ?? {
      employee_id: row.employee_id,
      employee_name: '',
      overrides: 0,
      total_delta_cents: 0,
    };
    staff.set(row.employee_id, {
      ...employee,
      employee_name: row.employee_name,
      overrides: employee.overrides + row.overrides,
      total_delta_cents: employee.total_delta_cents + delta,
    });
    employees.set(row.merchant_id, staff);
  }
  for (const [merchantId, staff] of employees) {
    activity.get(merchantId)!.employees = [...staff.values()]
      .sort((a, b) => b.overrides - a.overrides || a.employee_id.localeCompare(b.employee_id))
      .slice(0, TOP_EMPLOYEES);
  }
  return activity;
}

export interface OverrideFilter {
  /** null: every merchant. */
  merchantId: string | null;
  /** Inclusive lower and exclusive upper bound of `created_at`. */
  from?: Date;
  before?: Date;
  limit: number;
  offset: number;
}

/** An override in the report: the event's facts under the record's id, with its delta and place in the chain. */
export type OverrideReportRow = Omit<OverrideAppliedData, 'override_id' | 'rounding_delta_cents'> & {
  id: string;
  merchant_id: string;
  /** New cash total minus the calculated one: positive when the customer paid more than the calculation. */
  delta_cents: number;
  auditHash: string;
  chain_position: number;
};

export interface OverrideReportSummary {
  overrides: number;
  raised: number;
  lowered: number;
  total_delta_cents: number;
  by_reason: Record<OverrideReason, number>;
}

/** The overrides the filter matches, oldest first, a page of them, with a summary of all of them. */
export async function overrideReport(
  sql: Sql,
  filter: OverrideFilter,
): Promise<{ overrides: OverrideReportRow[]; total: number; summary: OverrideReportSummary }> {
  const where = `($1::text is null or merchant_id = $1) and ($2::timestamptz is null or created_at >= $2) and ($3::timestamptz is null or created_at < $3)`;
  const params = [filter.merchantId, filter.from?.toISOString() ?? null, filter.before?.toISOString() ?? null];
  const totals = await sql.query<{
    reason: OverrideReason;
    overrides: number;
    raised: number;
    lowered: number;
    delta: string;
  }>(
    `select reason, count(*)::int as overrides, (count(*) filter (where delta_cents > 0))::int as raised,
       (count(*) filter (where delta_cents < 0))::int as lowered, sum(delta_cents) as delta
     from rm_overrides where ${where} group by reason`,
    params,
  );
  const rows = await sql.query<OverrideRow>(
    `select * from rm_overrides where ${where} order by created_at, chain_position limit $4 offset $5`,
    [...params, filter.limit, filter.offset],
  );
  const summary: OverrideReportSummary = {
    overrides: 0,
    raised: 0,
    lowered: 0,
    total_delta_cents: 0,
    by_reason: { ...NO_OVERRIDES.by_reason },
  };
  for (const row of totals) {
    summary.overrides += row.overrides;
    summary.raised += row.raised;
    summary.lowered += row.lowered;
    summary.total_delta_cents += Number(row.delta);
    summary.by_reason[row.reason] = row.overrides;
  }
  return { overrides: rows.map(reportRow), total: summary.overrides, summary };
}

/** bigint columns read back as strings. */
interface OverrideRow {
  override_id: string;
  merchant_id: string;
  transaction_id: string;
  employee_id: string;
  employee_name: string;
  reason: OverrideReason;
  calculated_cash_total_cents: string;
  previous_cash_total_cents: string;
  new_cash_total_cents: string;
  delta_cents: string;
  created_at: Date;
  audit_hash: string;
  chain_position: string;
}

function reportRow({
  override_id: overrideId,
  created_at: createdAt,
  audit_hash: auditHash,
  chain_position: chainPosition,
  ...row
}: OverrideRow): OverrideReportRow {
  return {
    id: overrideId,
    ...row,
    calculated_cash_total_cents: Number(row.calculated_cash_total_cents),
    previous_cash_total_cents: Number(row.previous_cash_total_cents),
    new_cash_total_cents: Number(row.new_cash_total_cents),
    delta_cents: Number(row.delta_cents),
    created_at: createdAt.toISOString(),
    auditHash: auditHash,
    chain_position: Number(chainPosition),
  };
}
