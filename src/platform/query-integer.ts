import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt } from 'class-validator';

/** Decimal digits with no leading zero, and a minus for a negative: what a client means by an integer. */
const DECIMAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * An integer from a query string, read strictly: `Number()` would take `1e2` as 100, `0x10` as 16 and
 * `" 1"` or `""` as a number too (issue 33). Anything but decimal digits stays a string, which `IsInt`
 * refuses with a 400 naming the field; the range is the field's own `Min` and `Max`.
 */
export const QueryInteger = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value,
    ),
    IsInt({ message: ({ property }) => `${property} must be an integer in decimal digits` }),
  );
