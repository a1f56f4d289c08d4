import { ApiProperty } from '@nestjs/swagger';
import { AsOfPosition } from '../../platform/as-of-position';
import { VOID_RECORD_TYPES, type VoidRecordType } from '../read-model/void-analytics/void-analytics.projector';
import { VOID_SIGNAL_CODES, type VoidSignalCode } from '../void-analysis';

/** Enough to check a flag by hand; `count` says how many more there are. */
export const EVIDENCE_LIMIT = 100;

/** The records a flag rests on. */
export class VoidAbuseEvidence {
  @ApiProperty({ enum: VOID_RECORD_TYPES, description: '`REFUND` for REPEATED_NORMALIZATION_FAILURES, else `VOID`' })
  record_type: VoidRecordType;

  @ApiProperty({
    type: [String],
    description: `The ids of the VOID or REFUND records, newest first, at most ${EVIDENCE_LIMIT}`,
    example: ['TXN-2026-11-21-9W3D7XRB', 'TXN-2026-11-21-8KQ2M4PZ'],
  })
  ids: string[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many records match in all', example: 19 })
  count: number;
}

/** A void-abuse signal of a merchant, with the records it rests on. */
export class VoidAbuseFlag {
  @ApiProperty({ example: 'm-quickstop-042' })
  merchant_id: string;

  @ApiProperty({
    enum: VOID_SIGNAL_CODES,
    description:
      '`HIGH_VOID_RATE`: voids per sale (from 20 sales); `REPEATED_NORMALIZATION_FAILURES`: refunds whose rounding moved the same ' +
      'way as the sale’s; `VOIDS_AT_SHIFT_CHANGE`: voids clustered around the configured shift changes; ' +
      '`VOIDS_CONCENTRATED_ON_EMPLOYEE`: one employee authorized most voids',
    example: 'VOIDS_AT_SHIFT_CHANGE',
  })
  code: VoidSignalCode;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'What the signal adds to the merchant’s fraud score',
    example: 15,
  })
  points: number;

  @ApiProperty({
    description: 'What was measured, for people',
    example:
      '19 of 55 voids were within 30 minutes of a shift change (6, 14, 22 UTC), which cover a share of 0.125 of the day (z = 4.94)',
  })
  detail: string;

  @ApiProperty()
  evidence: VoidAbuseEvidence;
}

/** The shift changes as configured (SHIFT_CHANGE_HOURS, SHIFT_CHANGE_WINDOW_MINUTES). */
export class ShiftChangeSetting {
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 23 },
    description: 'Hours of the day (UTC)',
    example: [6, 14, 22],
  })
  hours: number[];

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'A void within this many minutes of one, either side, counts as at it',
    example: 30,
  })
  window_minutes: number;
}

export class VoidAbuseResponse {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The `merchant_id` asked for; null: every merchant',
    example: null,
  })
  merchant_id: string | null;

  @AsOfPosition()
  as_of_position: number;

  @ApiProperty({ description: 'The shift changes the timing flags are measured against' })
  shift_change: ShiftChangeSetting;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  flag_count: number;

  /** Most points first. */
  @ApiProperty({ type: [VoidAbuseFlag], description: 'Every flag, most points first, ties by merchant id' })
  flags: VoidAbuseFlag[];
}
