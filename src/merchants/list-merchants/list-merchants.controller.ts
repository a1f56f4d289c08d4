import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { PageRequest } from '../../platform/page.request.dto';
import { MerchantList } from '../merchant.response.dto';
import { ListMerchantsQuery } from './list-merchants.query';

@ApiTags('Merchants and keys')
@Controller('admin/merchants')
export class ListMerchantsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Roles('admin', 'partner')
  @ApiOperation({
    operationId: 'listMerchants',
    summary: 'List merchants, a page at a time',
    description:
      "Oldest first. An admin key lists every merchant; a partner key the merchants its partner onboarded in the key's own environment.",
  })
  @ApiOkResponse({ type: MerchantList, description: 'One page of the merchants the key may see' })
  list(@Query() query: PageRequest, @CurrentPrincipal() principal: Principal): Promise<MerchantList> {
    return this.queries.execute(new ListMerchantsQuery(query, principal));
  }
}
