import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { POOL_METHODS, type PoolMethod } from '../tip.events';
import { ACTING_MERCHANT, Dollars, EmployeeId, EmployeeName, OptionalMerchantId } from '../tip-fields';
import { TIP_ID_PATTERN } from '../tip-ids';

export const MAX_POOL_TIPS = 500;
export const MAX_POOL_PARTICIPANTS = 100;
/** Weights and hours are positive and at most this: a month has 744 hours. */
export const MAX_SHARE_BASIS = 1000;
const POOL_NAME_LENGTH = { min: 1, max: 200 };

/** The spec's participant (camelCase), with `weight` for weighted pools or `hours` for hours_based ones. */
export class PoolParticipantRequest {
  @EmployeeId({ description: 'The employee who receives a share' })
  employeeId: string;

  @EmployeeName()
  employeeName: string;

  @Dollars(MAX_SHARE_BASIS, {
    positive: true,
    optional: true,
    example: 2,
    description: 'Required in `weighted` pools, refused in the others: the share is proportional to it',
  })
  weight?: number;

  @Dollars(MAX_SHARE_BASIS, {
    positive: true,
    optional: true,
    example: 7.5,
    description:
      'Required in `hours_based` pools, refused in the others: hours worked, the share is proportional to them',
  })
  hours?: number;
}

/** `POST /tip/pool/create`. Which participant fields a method needs is the decider's call. */
export class CreateTipPoolRequest {
  @ApiProperty({
    type: 'string',
    minLength: POOL_NAME_LENGTH.min,
    maxLength: POOL_NAME_LENGTH.max,
    example: 'Saturday dinner shift',
  })
  @IsString()
  @Length(POOL_NAME_LENGTH.min, POOL_NAME_LENGTH.max)
  pool_name: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: TIP_ID_PATTERN.source, example: 'TIP-2026-11-21-7K3M9QXA' },
    minItems: 1,
    maxItems: MAX_POOL_TIPS,
    uniqueItems: true,
    description:
      'Tips of the merchant that are in no pool yet (409 TIP_ALREADY_POOLED otherwise; unknown ones are a 404 naming them). ' +
      'Each goes in at its current amount, which is fixed from then on: a pooled tip cannot be adjusted.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POOL_TIPS)
  @ArrayUnique({ message: 'tip_ids must not repeat a tip' })
  @IsString({ each: true })
  @Matches(TIP_ID_PATTERN, { each: true, message: 'each of tip_ids must be a tip id such as TIP-2026-01-31-7K3M9QXA' })
  tip_ids: string[];

  @ApiProperty({
    enum: POOL_METHODS,
    description:
      '`equal`: the same share each; `weighted`: by each participant’s `weight`; `hours_based`: by each participant’s `hours`. ' +
      'Every share is rounded up to the cent, in the employee’s favour.',
    example: 'equal',
  })
  @IsIn(POOL_METHODS)
  distribution_method: PoolMethod;

  @ApiProperty({
    type: [PoolParticipantRequest],
    minItems: 1,
    maxItems: MAX_POOL_PARTICIPANTS,
    description: 'Who receives a share, each employee once (camelCase, as in the spec)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POOL_PARTICIPANTS)
  @ValidateNested({ each: true })
  @Type(() => PoolParticipantRequest)
  participants: PoolParticipantRequest[];

  @OptionalMerchantId(ACTING_MERCHANT)
  merchant_id?: string;
}
