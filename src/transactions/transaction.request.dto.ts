import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { TRANSACTION_ID_PATTERN } from '../transaction-id';

export const TRANSACTION_ID_EXAMPLE = 'TXN-2026-11-21-8F3K2Q7M';

/** A transaction id in a path or a body; always required. */
export const IsTransactionId = (description?: string) =>
  applyDecorators(
    ApiProperty({ type: 'string', pattern: TRANSACTION_ID_PATTERN.source, example: TRANSACTION_ID_EXAMPLE, description }),
    IsString(),
    Matches(TRANSACTION_ID_PATTERN, { message: '$property must be a transaction id such as TXN-2026-01-31-7K3M9QXA' }),
  );

export class GetTransactionParams {
  @IsTransactionId('The transaction id, `TXN-YYYY-MM-DD-XXXXXXXX`')
  id: string;
}
