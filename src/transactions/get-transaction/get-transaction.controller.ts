import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { TRANSACTION_NOT_FOUND_DOC } from '../transaction.errors';
import { GetTransactionQuery } from './get-transaction.query';
import { GetTransactionResponse } from './get-transaction.response.dto';
import { TransactionIdParams } from '../transaction.request.dto';

@ApiTags('Transactions')
@Controller()
export class GetTransactionController {
  constructor(private readonly queries: QueryBus) {}

  /** Auditors may read a transaction as they may list it: GET /transactions admits them. */
  @Get('transaction/:id')
  @Roles('merchant', 'auditor', 'partner')
  @ApiOperation({
    operationId: 'getTransaction',
    summary: 'A transaction in full, with its entries in the hash chain',
    description:
      'A SALE, VOID or REFUND record: its calculation, the rule as it stood at the time, compliance, fraud score, audit hash and chain position; a sale also shows its state, overrides, void and refunds. ' +
      "Another merchant's transaction is answered 404, exactly like an unknown id.",
  })
  @ApiOkResponse({ type: GetTransactionResponse, description: 'The transaction and its history in the chain' })
  @ApiErrors({ 404: TRANSACTION_NOT_FOUND_DOC })
  get(@Param() { id }: TransactionIdParams, @CurrentPrincipal() principal: Principal): Promise<GetTransactionResponse> {
    return this.queries.execute(new GetTransactionQuery(id, principal));
  }
}
