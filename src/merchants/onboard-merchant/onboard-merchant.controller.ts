import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { OnboardMerchantCommand } from './onboard-merchant.command';
import { OnboardMerchantRequest } from './onboard-merchant.request.dto';
import { OnboardedMerchant, toMerchantResponse } from '../merchant.response.dto';
import { AppendsToLog } from '../../platform/as-of-position';

@ApiTags('Merchants and keys')
@Controller('admin/merchants')
export class OnboardMerchantController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @Roles('admin', 'partner')
  @AppendsToLog()
  @ApiOperation({
    operationId: 'onboardMerchant',
    summary: 'Onboard a merchant',
    description:
      'Records the merchant under the id the caller chose. A merchant onboarded with a partner key belongs to that ' +
      "key's partner, which may then issue its merchant keys and act for it; a partner key onboards merchants of its " +
      'own environment only (403 otherwise). An admin may onboard in either environment; the merchant then belongs to no partner. ' +
      'Ids are compared ignoring case: `m-alpha` is refused once `M-ALPHA` exists (409).',
  })
  @ApiCreatedResponse({ type: OnboardedMerchant, description: 'The merchant as recorded' })
  @ApiErrors({
    409: {
      MERCHANT_ALREADY_EXISTS:
        'A merchant with this merchant_id, or one differing from it only in case, was already onboarded',
    },
  })
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
}
