import type { StoredEvent } from '../../platform/event-store/event-store.port';
import type { AuditEmployee, AuditEntry } from './list-audit-logs.response.dto';

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
function employeeOf(data: Record<string, unknown>): AuditEmployee | null {
  const id = [data.employee_id, data.voided_by, data.cashier_id].find((v) => typeof v === 'string');
  if (typeof id !== 'string') return null;
  return { id, name: typeof data.employee_name === 'string' ? data.employee_name : null };
}
