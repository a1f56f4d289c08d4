import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import { IsTransactionId } from '../transaction.request.dto';
import { Cents, RecordedId } from '../transaction.request.dto';
import { OVERRIDE_REASONS, type OverrideReason } from '../transaction.events';

const EMPLOYEE_NAME_LENGTH = { min: 1, max: 200 };
/** Not blank: at least one character that is not white space. */
const NOT_BLANK = /\S/;

/** `POST /transaction/override`. */
export class ApplyOverrideRequest {
  @IsTransactionId('The sale to override')
  transaction_id: string;

  @RecordedId({ example: 'mgr-014', description: 'The authorizing employee' })
  employee_id: string;

  /** Recorded verbatim: neither trimmed nor normalized, only bounded. */
  @ApiProperty({
    type: 'string',
    minLength: EMPLOYEE_NAME_LENGTH.min,
    maxLength: EMPLOYEE_NAME_LENGTH.max,
    pattern: NOT_BLANK.source,
    example: 'Dana Whitfield',
    description: 'Recorded verbatim in the audit record: neither trimmed nor normalized; not blank',
  })
  @IsString()
  @Length(EMPLOYEE_NAME_LENGTH.min, EMPLOYEE_NAME_LENGTH.max)
  @Matches(NOT_BLANK, { message: 'employee_name must not be blank' })
  employee_name: string;

  @ApiProperty({ enum: OVERRIDE_REASONS, example: 'customer-request' })
  @IsIn(OVERRIDE_REASONS)
  reason: OverrideReason;

  @Cents({
    example: 1075,
    description: "The corrected cash total; it replaces the sale's `cash_total_cents` for settlement",
  })
  new_cash_total_cents: number;
}
