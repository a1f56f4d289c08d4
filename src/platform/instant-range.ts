import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, Matches } from 'class-validator';
import { validationError } from './errors/validation.pipe';

/** A date, or a date and time with its zone: a time without a zone would depend on the server's. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const INSTANT_RULE =
  '$property must be an ISO 8601 date (2026-11-21) or date and time with a zone (2026-11-21T09:30:00Z)';
const DAY_MS = 86_400_000;

/** An optional `start_date` or `end_date` of a request (audit logs, export). */
export const IsInstant = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      pattern: INSTANT.source,
      description:
        'An ISO 8601 date, or date and time with a zone; both bounds are inclusive, a date alone as `end_date` runs to the end of that day (UTC)',
      example: '2026-11-21',
    }),
    IsOptional(),
    IsISO8601({ strict: true }, { message: INSTANT_RULE }),
    Matches(INSTANT, { message: INSTANT_RULE }),
  );

export interface InstantRange {
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  before?: Date;
}

/**
 * Both bounds inclusive: an `end_date` given as a date alone runs to the end of that day (UTC), a
 * time up to its last millisecond (the precision of recorded times). An end before the start is a 400.
 */
export function instantRange(startDate?: string | null, endDate?: string | null): InstantRange {
  const from = startDate == null ? undefined : new Date(startDate);
  const before = endDate == null ? undefined : new Date(Date.parse(endDate) + (endDate.length === 10 ? DAY_MS : 1));
  if (from && before && from >= before) {
    throw validationError([{ field: 'end_date', messages: ['end_date must not be before start_date'] }]);
  }
  return { from, before };
}
