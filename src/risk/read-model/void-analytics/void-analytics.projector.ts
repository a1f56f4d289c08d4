import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import { insertRows, prepared, type Sql } from '../../../platform/event-store/sql';
import { NO_VOIDS, type VoidActivity } from '../../void-analysis';
import type { ShiftChanges } from '../../../platform/config/config';
import type {
  OverrideApplied,
  RefundIssuedData,
  TransactionEvent,
  TransactionVoidedData,
  VoidReason,
} from '../../../transactions/transaction.events';
import { addToRows, type CounterChange } from '../../../platform/projections/counters';
import type { Projector } from '../../../platform/projections/projector';

const DAY_MS = 86_400_000;

/**
 * Per merchant: sales, voids, refunds and normalization failures counted, voids broken down by hour
 * of the day (UTC), reason and authorizing employee; and every VOID and REFUND record as a row, the
 * evidence the void-abuse flags name. Shift changes are configuration, so voids near one are counted
 * from the rows when read (by the second of the day each row keeps), not when projected.
 */
export const voidAnalyticsProjector: Projector = {
  name: 'void-analytics',
  version: 1,
  handles: ['TransactionRecorded', 'TransactionVoided', 'RefundIssued'],

  async reset(tx: Sql): Promise<void> {
    for (const table of ['rm_void_totals', 'rm_void_breakdown', 'rm_void_records'])
      await tx.query(`drop table if exists ${table}`);
    await tx.query(
      `create table rm_void_totals (
         merchant_id text primary key,
         sales int not null default 0,
         sales_cents bigint not null default 0,
         voids int not null default 0,
         voided_cents bigint not null default 0,
         refunds int not null default 0,
         refunded_cents bigint not null default 0,
         normalization_failures int not null default 0,
         last_position bigint not null
       )`,
    );
    await tx.query(
      `create table rm_void_breakdown (
         merchant_id text not null,
         dimension text not null,
         value text not null,
         voids int not null,
         last_position bigint not null,
         primary key (merchant_id, dimension, value)
       )`,
    );
    await tx.query(
      `create table rm_void_records (
         record_id text primary key,
         merchant_id text not null,
         type text not null,
         original_transaction_id text not null,
         employee_id text not null,
         reason text not null,
         amount_cents bigint not null,
         created_at timestamptz not null,
         second_of_day int not null,
         normalization_passed boolean,
         audit_hash char(64) not null,
         chain_position bigint not null
       )`,
    );
    await tx.query('create index rm_void_records_merchant on rm_void_records (merchant_id, type, chain_position)');
  },

  async apply(events: readonly StoredEvent[], tx: Sql): Promise<void> {
    const totals: CounterChange[] = [];
    const breakdown: CounterChange[] = [];
    const records: { event: StoredEvent; data: TransactionVoidedData | RefundIssuedData }[] = [];
    for (const event of events) {
      const { type, data } = event as unknown as Exclude<TransactionEvent, OverrideApplied>;
      const { merchant_id: merchantId } = data;
      const { position } = event;
      const count = (counters: Record<string, number>) =>
        totals.push({ key: { merchant_id: merchantId }, counters, position });
      switch (type) {
        case 'TransactionRecorded':
          count({ sales: 1, sales_cents: data.calculation.cash_total_cents });
          break;
        case 'TransactionVoided': {
          count({ voids: 1, voided_cents: -data.calculation.cash_total_cents });
          const hour = Math.floor(secondOfDay(data.created_at) / 3600);
          for (const [dimension, value] of [
            ['hour', String(hour)],
            ['reason', data.void_reason],
            ['employee', data.voided_by],
          ]) {
            breakdown.push({ key: { merchant_id: merchantId, dimension, value }, counters: { voids: 1 }, position });
          }
          records.push({ event, data });
          break;
        }
        case 'RefundIssued':
          count({
            refunds: 1,
            refunded_cents: -data.calculation.cash_total_cents,
            normalization_failures: Number(!data.normalization.passed),
          });
          records.push({ event, data });
          break;
      }
    }
    await addToRows(tx, 'rm_void_totals', totals);
    await addToRows(tx, 'rm_void_breakdown', breakdown);
    await insertRecords(tx, records);
  },
};

/** Seconds since midnight UTC: merchants carry no time zone. */
function secondOfDay(iso: string): number {
  return Math.floor((Date.parse(iso) % DAY_MS) / 1000);
}

async function insertRecords(
  tx: Sql,
  records: { event: StoredEvent; data: TransactionVoidedData | RefundIssuedData }[],
): Promise<void> {
  if (records.length === 0) return;
  const params: unknown[] = [];
  const rows = records.map(({ event, data }) => ({
    record_id: data.transaction_id,
    merchant_id: data.merchant_id,
    type: data.transaction_type,
    original_transaction_id: data.original_transaction_id,
    employee_id: data.voided_by,
    reason: data.void_reason,
    amount_cents: -data.calculation.cash_total_cents,
    created_at: data.created_at,
    second_of_day: secondOfDay(data.created_at),
    normalization_passed: data.transaction_type === 'REFUND' ? data.normalization.passed : null,
    audit_hash: event.hash,
    chain_position: event.position,
  }));
  await tx.query(prepared(`${insertRows('rm_void_records', rows, params)} on conflict (record_id) do nothing`), params);
}

/** `$n` is the shift changes' seconds of the day, `$n+1` the window in seconds. */
const nearShiftChange = (n: number) =>
  `exists (select 1 from unnest($${n}::int[]) as shift(second)
           where least(abs(second_of_day - shift.second), 86400 - abs(second_of_day - shift.second)) <= $${n + 1})`;
const shiftParams = (shift: ShiftChanges) => [shift.hours.map((hour) => hour * 3600), shift.windowMinutes * 60];

interface TotalsRow {
  merchant_id: string;
  sales: number;
  sales_cents: string;
  voids: number;
  voided_cents: string;
  refunds: number;
  refunded_cents: string;
  normalization_failures: number;
}

/** The void activity of one merchant, or of every merchant (`null`), by merchant id; voids at a shift change as `shift` has them. */
export async function voidActivity(
  sql: Sql,
  merchantId: string | null,
  shift: ShiftChanges,
): Promise<Map<string, VoidActivity>> {
  const totals = await sql.query<TotalsRow>(
    'select * from rm_void_totals where ($1::text is null or merchant_id = $1)',
    [merchantId],
  );
  const breakdown = await sql.query<{
    merchant_id: string;
    dimension: 'hour' | 'reason' | 'employee';
    value: string;
    voids: number;
  }>(
    'select merchant_id, dimension, value, voids from rm_void_breakdown where ($1::text is null or merchant_id = $1) order by voids desc, value',
    [merchantId],
  );
  const near = await sql.query<{ merchant_id: string; voids: number }>(
    `select merchant_id, count(*)::int as voids from rm_void_records
     where type = 'VOID' and ($1::text is null or merchant_id = $1) and ${nearShiftChange(2)} group by merchant_id`,
    [merchantId, ...shiftParams(shift)],
  );
  const activity = new Map<string, VoidActivity>(
    totals.map((row) => [
      row.merchant_id,
      {
        ...NO_VOIDS,
        sales: row.sales,
        sales_cents: Number(row.sales_cents),
        voids: row.voids,
        voided_cents: Number(row.voided_cents),
        refunds: row.refunds,
        refunded_cents: Number(row.refunded_cents),
        normalization_failures: row.normalization_failures,
        voids_by_hour: [...NO_VOIDS.voids_by_hour],
        voids_by_reason: { ...NO_VOIDS.voids_by_reason },
        employees: [],
      },
    ]),
  );
  for (const { merchant_id: merchantId, dimension, value, voids } of breakdown) {
    const merchant = activity.get(merchantId)!;
    if (dimension === 'hour') merchant.voids_by_hour[Number(value)] = voids;
    else if (dimension === 'reason') merchant.voids_by_reason[value as VoidReason] = voids;
    else merchant.employees.push({ employee_id: value, voids });
  }
  for (const row of near) activity.get(row.merchant_id)!.near_shift_change = row.voids;
  return activity;
}

/** The kinds of record the read model keeps a row of. */
export const VOID_RECORD_TYPES = ['VOID', 'REFUND'] as const;
export type VoidRecordType = (typeof VOID_RECORD_TYPES)[number];

/** Which of a merchant's VOID or REFUND records a flag rests on. */
export interface RecordCriteria {
  type: VoidRecordType;
  normalizationFailed?: boolean;
  employeeId?: string;
  nearShiftChange?: ShiftChanges;
}

/** The ids of the records that match, newest first, at most `limit` of them, and how many match in all. */
export async function voidRecordIds(
  sql: Sql,
  merchantId: string,
  criteria: RecordCriteria,
  limit: number,
): Promise<{ ids: string[]; count: number }> {
  const params: unknown[] = [merchantId, criteria.type];
  const where = ['merchant_id = $1', 'type = $2'];
  if (criteria.normalizationFailed) where.push('normalization_passed = false');
  if (criteria.employeeId !== undefined) {
    params.push(criteria.employeeId);
    where.push(`employee_id = $${params.length}`);
  }
  if (criteria.nearShiftChange) {
    where.push(nearShiftChange(params.length + 1));
    params.push(...shiftParams(criteria.nearShiftChange));
  }
  const rows = await sql.query<{ record_id: string; count: number }>(
    `select record_id, (count(*) over ())::int as count from rm_void_records where ${where.join(' and ')}
     order by chain_position desc limit $${params.length + 1}`,
    [...params, limit],
  );
  return { ids: rows.map((row) => row.record_id), count: rows[0]?.count ?? 0 };
}
