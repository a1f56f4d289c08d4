import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PageRequest } from '../../platform/page.request.dto';
import { ApiKeyList } from '../api-key.response.dto';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ListApiKeysQuery } from './list-api-keys.query';

/** Admins manage every key; a partner manages the merchant keys of its own merchants. */
@ApiTags('Merchants and keys')
@Controller('admin/api-keys')
@Roles('admin', 'partner')
export class ListApiKeysController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys, a page at a time',
    description:
      "Oldest first, revoked keys included, never the raw key nor its hash. An admin key lists every key; a partner key the keys of the merchants its partner onboarded in the key's environment.",
  })
  @ApiOkResponse({ type: ApiKeyList, description: 'One page of the keys the caller may see' })
  list(@Query() query: PageRequest, @CurrentPrincipal() principal: Principal): Promise<ApiKeyList> {
    return this.queries.execute(new ListApiKeysQuery(query, principal));
  }
}
