import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import { GetTransactionParams } from '../get-transaction/get-transaction.request.dto';
import { GetReceiptQuery, type GetReceiptResponse } from './get-receipt.query';
import { GetReceiptRequest } from './get-receipt.request.dto';

@Controller()
export class GetReceiptController {
  constructor(private readonly queries: QueryBus) {}

  /** Auditors too, as for GET /transaction/{id}: the audit format exists for them. */
  @Get('transaction/:id/receipt')
  @Roles('merchant', 'auditor', 'partner')
  get(@Param() { id }: GetTransactionParams, @Query() { format }: GetReceiptRequest, @CurrentPrincipal() principal: Principal): Promise<GetReceiptResponse> {
    return this.queries.execute(new GetReceiptQuery(id, format, principal));
  }
}
