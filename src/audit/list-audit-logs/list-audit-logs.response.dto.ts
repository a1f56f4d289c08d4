import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { HASH_PATTERN } from '../../platform/openapi/hash-property';

const HASH_EXAMPLE = '9f2c4e1a7b3d5f60812a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d';

const PREV_HASH_EXAMPLE = '3b7e9d1f5a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c1e3f';

/** Who an event names as having acted: overrides, tips and payouts an employee, voids and refunds who voided, sales their cashier. */
export class AuditEmployee {
  @ApiProperty({ example: 'emp-104' })
  id: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Null when the event names no employee name (voids, refunds, sales)',
    example: 'Jordan Lee',
  })
  name: string | null;
}

export class AuditActor {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The id of the API key behind the event; null for the service’s own events (checkpoints)',
    example: 'key_7QW2M9XK4Pb3nT8cR1dF',
  })
  key_id: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The role of that key; null for the service’s own events',
    example: 'merchant',
  })
  role: string | null;

  @ApiProperty({ type: AuditEmployee, nullable: true, description: 'The employee the event names, if any' })
  employee: AuditEmployee | null;
}

/** One entry of `GET /admin/audit-logs`: the event with who caused it and where it sits in the chain. */
export class AuditEntry {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Place in the hash chain, from 1; the list’s cursor',
    example: 1204,
  })
  position: number;

  @ApiProperty({ format: 'uuid', example: '5f0c9a7e-2b1d-4c3e-9a8f-6d2e1b0c4a7f' })
  entry_id: string;

  @ApiProperty({ description: 'The stored event type', example: 'TransactionRecorded' })
  event_type: string;

  @ApiProperty({ description: 'The record the event belongs to', example: 'transaction-TXN-2026-11-21-8F3K2Q7M' })
  stream_id: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The event’s number within its stream, from 1', example: 1 })
  stream_revision: number;

  @ApiProperty({
    format: 'date-time',
    description: 'When the entry was appended (UTC)',
    example: '2026-11-21T14:32:07.512Z',
  })
  recorded_at: string;

  @ApiProperty({
    description:
      'The API key behind the event and, where the event names one, the employee who acted. Nulls for the service’s own events.',
  })
  actor: AuditActor;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Null for events of no merchant (keys of the platform, rules, checkpoints)',
    example: 'm-quickstop-042',
  })
  merchant_id: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The request id (`x-request-id`) of the request that caused the event; null for the service’s own events',
    example: 'c2a1f3e4-7b6d-4e8f-9a0b-1c2d3e4f5a6b',
  })
  correlation_id: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The event’s data as recorded; its fields depend on `event_type`',
    example: {
      transaction_id: 'TXN-2026-11-21-8F3K2Q7M',
      merchant_id: 'm-quickstop-042',
      subtotal_cents: 1003,
      cashier_id: 'emp-104',
    },
  })
  details: Record<string, unknown>;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'The hash of the entry before (64 zeros for the first)',
    example: PREV_HASH_EXAMPLE,
  })
  prev_hash: string;

  @ApiProperty({
    pattern: HASH_PATTERN,
    description: 'SHA-256 over the entry’s fields and `prev_hash`',
    example: HASH_EXAMPLE,
  })
  hash: string;
}

@ApiSchema({ name: 'AuditLogPage' })
export class ListAuditLogsResponse {
  @ApiProperty({ type: [AuditEntry], description: 'In position order, oldest first' })
  entries: AuditEntry[];

  @ApiProperty({ type: 'integer', description: 'The `limit` applied', example: 100 })
  limit: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Pass as `cursor` for the next page (the position of this page’s last entry); null when no further entry matched at the time of the request',
    example: 1303,
  })
  next_cursor: number | null;
}
