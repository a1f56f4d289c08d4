import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../platform/identity/command-context';
import { CurrentPrincipal } from '../platform/identity/current-principal.decorator';
import { ENVIRONMENTS, type Environment, type Principal } from '../platform/identity/principal';
import { Roles } from '../platform/identity/roles.decorator';
import { ApiErrors } from '../platform/openapi/api-errors.decorator';
import { PageAnswer, PageRequest } from '../platform/page.request.dto';
import { MerchantDirectory, type MerchantRecord } from './merchant-directory';
import { MERCHANT_ID_PROPERTY } from './merchant-id';
import { OnboardMerchantCommand } from './onboard-merchant/onboard-merchant.command';
import { OnboardMerchantRequest } from './onboard-merchant/onboard-merchant.request.dto';

export class MerchantResponse {
  @ApiProperty(MERCHANT_ID_PROPERTY)
  merchant_id: string;

  @ApiProperty({ example: 'Corner Deli' })
  name: string;

  @ApiProperty({ enum: ENVIRONMENTS, example: 'production' })
  environment: Environment;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The partner that onboarded the merchant and may act for it; null when an admin onboarded it',
    example: 'key_7Qm2VxR9tLp4Kd8Nw3Zb',
  })
  partner_id: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T14:03:27.512Z' })
  onboarded_at: string;
}

export class OnboardedMerchant {
  @ApiProperty()
  merchant: MerchantResponse;
}

export class MerchantList extends PageAnswer {
  @ApiProperty({ type: [MerchantResponse], description: 'Oldest first' })
  merchants: MerchantResponse[];
}

@ApiTags('Merchants and keys')
@Controller('admin/merchants')
export class MerchantsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantDirectory,
  ) {}

  @Post()
  @Roles('admin', 'partner')
  @ApiOperation({
    operationId: 'onboardMerchant',
    summary: 'Onboard a merchant',
    description:
      'Records the merchant under the id the caller chose. A merchant onboarded with a partner key belongs to that ' +
      "key's partner, which may then issue its merchant keys and act for it; a partner key onboards merchants of its " +
      'own environment only (403 otherwise). An admin may onboard in either environment; the merchant then belongs to no partner.',
  })
  @ApiCreatedResponse({ type: OnboardedMerchant, description: 'The merchant as recorded' })
  @ApiErrors({ 409: { MERCHANT_ALREADY_EXISTS: 'A merchant with this merchant_id was already onboarded' } })
  async onboard(
    @Body() body: OnboardMerchantRequest,
    @CurrentCommandContext() context: CommandContext,
  ): Promise<OnboardedMerchant> {
    const merchant = await this.commands.execute(
      new OnboardMerchantCommand(
        { merchantId: body.merchant_id, name: body.name, environment: body.environment },
        context,
      ),
    );
    return { merchant: toMerchantResponse(merchant) };
  }

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

function toMerchantResponse(merchant: MerchantRecord): MerchantResponse {
  return {
    merchant_id: merchant.merchantId,
    name: merchant.name,
    environment: merchant.environment,
    partner_id: merchant.partnerId,
    onboarded_at: merchant.onboardedAt,
  };
}
