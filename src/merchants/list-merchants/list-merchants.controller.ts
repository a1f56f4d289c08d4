import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { PageRequest } from '../../platform/page.request.dto';
import { MerchantDirectory } from '../merchant-directory';
import { MerchantList, toMerchantResponse } from '../merchant.response.dto';

@ApiTags('Merchants and keys')
@Controller('admin/merchants')
export class ListMerchantsController {
  constructor(private readonly merchants: MerchantDirectory) {}

  /** An admin sees every merchant, a partner those it onboarded, as MerchantScope decides (it lives in AuthModule, which imports this one). */
  @Get()
  @Roles('admin', 'partner')
  @ApiOperation({
    operationId: 'listMerchants',
    summary: 'List merchants, a page at a time',
    description:
      "Oldest first. An admin key lists every merchant; a partner key the merchants its partner onboarded in the key's own environment.",
  })
  @ApiOkResponse({ type: MerchantList, description: 'One page of the merchants the key may see' })
  async list(@Query() query: PageRequest, @CurrentPrincipal() principal: Principal): Promise<MerchantList> {
    const owner = principal.role === 'admin' ? 'all' : { partnerId: principal.partnerId ?? null, environment: principal.environment };
    const merchants = await this.merchants.list(owner, query);
    return { merchants: merchants.map(toMerchantResponse), limit: query.limit, offset: query.offset };
  }
}
