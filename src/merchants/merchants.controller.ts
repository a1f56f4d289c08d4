import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CorrelationId } from '../auth/command-context';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Roles } from '../auth/roles.decorator';
import { PageRequest } from '../common/page.request.dto';
import { MerchantDirectory, type MerchantRecord } from './merchant-directory';
import { OnboardMerchantCommand } from './onboard-merchant/onboard-merchant.command';
import { OnboardMerchantRequest } from './onboard-merchant/onboard-merchant.request.dto';

export interface MerchantResponse {
  merchant_id: string;
  name: string;
  environment: string;
  partner_id: string | null;
  onboarded_at: string;
}

@Controller('admin/merchants')
export class MerchantsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantDirectory,
  ) {}

  @Post()
  @Roles('admin', 'partner')
  async onboard(
    @Body() body: OnboardMerchantRequest,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
  ): Promise<{ merchant: MerchantResponse }> {
    const merchant = await this.commands.execute(
      new OnboardMerchantCommand(
        { merchantId: body.merchant_id, name: body.name, environment: body.environment },
        { principal, correlationId },
      ),
    );
    return { merchant: toMerchantResponse(merchant) };
  }

  /** An admin sees every merchant, a partner those it onboarded, as MerchantScope decides (it lives in AuthModule, which imports this one). */
  @Get()
  @Roles('admin', 'partner')
  async list(
    @Query() query: PageRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<{ merchants: MerchantResponse[]; limit: number; offset: number }> {
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
