import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { TransactionIdParams } from '../transaction.request.dto';
import { CHAIN_TAMPERED_DOC } from '../../audit/chain-tampered';
import { TRANSACTION_NOT_FOUND_DOC } from '../transaction.errors';
import { GetReceiptQuery, type GetReceiptResponse } from './get-receipt.query';
import { AuditReceiptResponse, MerchantReceiptResponse, PosReceiptResponse } from './get-receipt.response.dto';
import { GetReceiptRequest } from './get-receipt.request.dto';

@ApiTags('Transactions')
@ApiExtraModels(MerchantReceiptResponse, AuditReceiptResponse, PosReceiptResponse)
@Controller()
export class GetReceiptController {
  constructor(private readonly queries: QueryBus) {}

  /** Auditors too, as for GET /transaction/{id}: the audit format exists for them. */
  @Get('transaction/:id/receipt')
  @Roles('merchant', 'auditor', 'partner')
  @ApiOperation({
    operationId: 'getReceipt',
    summary: 'The receipt of a transaction, in one of three formats',
    description:
      "Rendered from the transaction on each read. `merchant`: the customer-facing receipt, with the rounding disclosure: the rule's own wording where it prescribes one, else the service's sentence saying how cash was rounded and on what authority. " +
      '`audit`: the full record, as `GET /transaction/{id}` answers it, with the inclusion proof of its entry against the latest signed tree head (`tree_head`, `inclusion_proof`), evidence the merchant can keep and check offline; the proof is of the record’s own entry or of nothing: when the log no longer holds that entry, the answer is 404, as for `GET /transaction/{id}`, with the chain alarm; when the log’s tree proves another entry at its position, 503 `CHAIN_TAMPERED`. `pos`: the raw cent values only. ' +
      "Another merchant's transaction is answered 404, exactly like an unknown id.",
  })
  @ApiOkResponse({
    description: 'The shape of `receipt` follows `format`',
    schema: {
      oneOf: [MerchantReceiptResponse, AuditReceiptResponse, PosReceiptResponse].map((model) => ({
        $ref: getSchemaPath(model),
      })),
    },
  })
  @ApiErrors({ 404: TRANSACTION_NOT_FOUND_DOC, 503: CHAIN_TAMPERED_DOC })
  get(
    @Param() { id }: TransactionIdParams,
    @Query() { format }: GetReceiptRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<GetReceiptResponse> {
    return this.queries.execute(new GetReceiptQuery(id, format, principal));
  }
}
