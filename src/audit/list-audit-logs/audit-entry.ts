import type { StoredEvent } from '../../event-store/event-store.port';

/** One entry of `GET /admin/audit-logs`: the event with who caused it and where it sits in the chain. */
export interface AuditEntry {
  position: number;
  entry_id: string;
  event_type: string;
  stream_id: string;
  stream_revision: number;
  recorded_at: string;
  /** The API key behind the event and, where the event names one, the employee who acted. Nulls for the service's own events. */
  actor: { key_id: string | null; role: string | null; employee: { id: string; name: string | null } | null };
  merchant_id: string | null;
  correlation_id: string | null;
  /** The event's data as recorded. */
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export function toAuditEntry(e: StoredEvent): AuditEntry {
  const { actor, merchantId, correlationId } = e.metadata;
  return {
    position: e.position,
    entry_id: e.entryId,
    event_type: e.type,
    stream_id: e.streamId,
    stream_revision: e.streamRevision,
    recorded_at: e.recordedAt,
    actor: { key_id: actor?.keyId ?? null, role: actor?.role ?? null, employee: employeeOf(e.data) },
    merchant_id: merchantId ?? null,
    correlation_id: correlationId ?? null,
    details: e.data,
    prev_hash: e.prevHash,
    hash: e.hash,
  };
}

/**
 * Overrides, tips and payouts name `employee_id` (and `employee_name`), voids and refunds
 * `voided_by`, sales their `cashier_id`.
 */
function employeeOf(data: Record<string, unknown>): AuditEntry['actor']['employee'] {
  const id = [data.employee_id, data.voided_by, data.cashier_id].find((v) => typeof v === 'string');
  if (typeof id !== 'string') return null;
  return { id, name: typeof data.employee_name === 'string' ? data.employee_name : null };
}
