import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PageRequest } from '../../platform/page.request.dto';
import { ApiKeyDirectory } from '../api-key-directory';
import { ApiKeyList, toApiKeyResponse } from '../api-key.response.dto';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import { MerchantScope } from '../merchant-scope';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';

/** Admins manage every key; a partner manages the merchant keys of its own merchants. */
@ApiTags('Merchants and keys')
@Controller('admin/api-keys')
@Roles('admin', 'partner')
export class ListApiKeysController {
  constructor(
    private readonly keys: ApiKeyDirectory,
    private readonly scope: MerchantScope,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys, a page at a time',
    description:
      "Oldest first, revoked keys included, never the raw key nor its hash. An admin key lists every key; a partner key the keys of the merchants its partner onboarded in the key's environment.",
  })
  @ApiOkResponse({ type: ApiKeyList, description: 'One page of the keys the caller may see' })
  async list(@Query() query: PageRequest, @CurrentPrincipal() principal: Principal): Promise<ApiKeyList> {
    const keys = await this.keys.list(await this.scope.visibleMerchants(principal), query);
    return { api_keys: keys.map(toApiKeyResponse), limit: query.limit, offset: query.offset };
  }
}
