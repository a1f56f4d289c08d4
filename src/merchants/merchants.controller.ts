import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CorrelationId } from '../auth/command-context';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Roles } from '../auth/roles.decorator';
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
  constructor(private readonly commands: CommandBus) {}

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
    return {
      merchant: {
        merchant_id: merchant.merchantId,
        name: merchant.name,
        environment: merchant.environment,
        partner_id: merchant.partnerId,
        onboarded_at: merchant.onboardedAt,
      },
    };
  }
}
