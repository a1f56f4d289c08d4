import { applyDecorators } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';
import { TRANSACTION_ID_PATTERN } from '../transaction-id';

/** A transaction id in a path or a body. */
export const IsTransactionId = () =>
  applyDecorators(IsString(), Matches(TRANSACTION_ID_PATTERN, { message: '$property must be a transaction id such as TXN-2026-01-31-7K3M9QXA' }));

export class GetTransactionParams {
  @IsTransactionId()
  id: string;
}
