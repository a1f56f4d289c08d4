import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ApiKeyDirectory } from '../api-key-directory';
import { toApiKeyResponse, type ApiKeyList } from '../api-key.response.dto';
import { MerchantScope } from '../merchant-scope';
import { ListApiKeysQuery } from './list-api-keys.query';

/** Admins see every key; a partner the merchant keys of its own merchants. */
@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery, ApiKeyList> {
  constructor(
    private readonly keys: ApiKeyDirectory,
    private readonly scope: MerchantScope,
  ) {}

  async execute({ page, principal }: ListApiKeysQuery): Promise<ApiKeyList> {
    const keys = await this.keys.list(await this.scope.visibleMerchants(principal), page);
    return { api_keys: keys.map(toApiKeyResponse), limit: page.limit, offset: page.offset };
  }
}
