import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ForbiddenError } from '../../platform/errors/request.errors';
import { MerchantScope } from '../../auth/merchant-scope';
import type { Principal } from '../../platform/identity/principal';
import { validationError } from '../../platform/errors/validation.pipe';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { listTransactions, transactionListProjector } from '../read-model/transaction-list.projector';
import { readAsOf } from '../../platform/projections/log-position';
import { ListTransactionsQuery } from './list-transactions.query';
import type { ListTransactionsResponse } from './list-transactions.response.dto';

@QueryHandler(ListTransactionsQuery)
export class ListTransactionsHandler implements IQueryHandler<ListTransactionsQuery, ListTransactionsResponse> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly scope: MerchantScope,
  ) {}

  async execute({ request, principal }: ListTransactionsQuery): Promise<ListTransactionsResponse> {
    const { limit, offset } = request;
    const merchantIds = await this.merchantsToList(principal, request.merchant_id);
    const { result } = await readAsOf(
      this.db,
      [transactionListProjector],
      (tx) =>
        listTransactions(tx, { merchantIds, state: request.state?.toUpperCase(), type: request.type, limit, offset }),
      request.min_position,
    );
    return { ...result, limit, offset };
  }

  /** The spec: merchant_id "is required when the key has access to several merchants". */
  private async merchantsToList(principal: Principal, merchantId: string | undefined): Promise<string[]> {
    if (merchantId !== undefined) {
      if (!(await this.scope.canSee(principal, merchantId)))
        throw new ForbiddenError(`This API key may not see merchant ${merchantId}`);
      return [merchantId];
    }
    const visible = await this.scope.visibleMerchants(principal);
    if (visible === 'all' || visible.length > 1) {
      throw validationError([
        { field: 'merchant_id', messages: ['merchant_id is required: this API key has access to several merchants'] },
      ]);
    }
    return visible;
  }
}
