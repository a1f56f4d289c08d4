import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { MerchantDirectory } from '../merchant-directory';
import { toMerchantResponse, type MerchantList } from '../merchant.response.dto';
import { ListMerchantsQuery } from './list-merchants.query';

/** An admin sees every merchant, a partner those it onboarded in its key's environment, as MerchantScope decides (it lives in AuthModule, which imports this one). */
@QueryHandler(ListMerchantsQuery)
export class ListMerchantsHandler implements IQueryHandler<ListMerchantsQuery, MerchantList> {
  constructor(private readonly merchants: MerchantDirectory) {}

  async execute({ page, principal }: ListMerchantsQuery): Promise<MerchantList> {
    const owner =
      principal.role === 'admin'
        ? 'all'
        : { partnerId: principal.partnerId ?? null, environment: principal.environment };
    const merchants = await this.merchants.list(owner, page);
    return { merchants: merchants.map(toMerchantResponse), limit: page.limit, offset: page.offset };
  }
}
