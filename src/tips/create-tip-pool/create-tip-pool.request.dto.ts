import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { POOL_METHODS, type PoolMethod } from '../tip.events';
import { Dollars, EmployeeId, EmployeeName, OptionalMerchantId } from '../tip-fields';
import { TIP_ID_PATTERN } from '../tip-ids';

export const MAX_POOL_TIPS = 500;
export const MAX_POOL_PARTICIPANTS = 100;
/** Weights and hours are positive and at most this: a month has 744 hours. */
export const MAX_SHARE_BASIS = 1000;

/** The spec's participant (camelCase), with `weight` for weighted pools or `hours` for hours_based ones. */
export class PoolParticipantRequest {
  @EmployeeId()
  employeeId: string;

  @EmployeeName()
  employeeName: string;

  @IsOptional()
  @Dollars(MAX_SHARE_BASIS, { positive: true })
  weight?: number;

  @IsOptional()
  @Dollars(MAX_SHARE_BASIS, { positive: true })
  hours?: number;
}

/** `POST /tip/pool/create`. Which participant fields a method needs is the decider's call. */
export class CreateTipPoolRequest {
  @IsString()
  @Length(1, 200)
  pool_name: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POOL_TIPS)
  @ArrayUnique({ message: 'tip_ids must not repeat a tip' })
  @IsString({ each: true })
  @Matches(TIP_ID_PATTERN, { each: true, message: 'each of tip_ids must be a tip id such as TIP-2026-01-31-7K3M9QXA' })
  tip_ids: string[];

  @IsIn(POOL_METHODS)
  distribution_method: PoolMethod;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POOL_PARTICIPANTS)
  @ValidateNested({ each: true })
  @Type(() => PoolParticipantRequest)
  participants: PoolParticipantRequest[];

  @OptionalMerchantId()
  merchant_id?: string;
}
