import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { SetRoundingPolicyCommand } from './set-rounding-policy.command';
import { RoundingPolicyParams, SetRoundingPolicyRequest } from './set-rounding-policy.request.dto';
import { RoundingPolicyAnswer } from './set-rounding-policy.response.dto';
import { AppendsToLog } from '../../platform/as-of-position';

@ApiTags('Transactions')
@Controller()
export class SetRoundingPolicyController {
  constructor(private readonly commands: CommandBus) {}

  @Put('merchant/:merchant_id/rounding-policy')
  @Roles('merchant', 'partner', 'admin')
  @AppendsToLog()
  @ApiOperation({
    operationId: 'changeRoundingPolicy',
    summary: "Set how a merchant's cash sales round, within the law",
    description:
      'Applies from the merchant’s next sale. `favor_customer` rounds cash down to the nickel wherever the law allows rounding down; ' +
      'each sale says in `calculation.rounding_policy` which policy applied and, where a mandatory rule overrode it, why. ' +
      'Setting the policy the merchant already has records nothing. A merchant key sets its own merchant’s, a partner key its merchants’.',
  })
  @ApiOkResponse({ type: RoundingPolicyAnswer, description: "The merchant's policy as recorded" })
  @ApiErrors({ 404: { NOT_FOUND: 'No merchant has this id (admin keys; others get 403)' } })
  set(
    @Param() { merchant_id: merchantId }: RoundingPolicyParams,
    @Body() body: SetRoundingPolicyRequest,
    @CurrentCommandContext() context: CommandContext,
  ): Promise<RoundingPolicyAnswer> {
    return this.commands.execute(new SetRoundingPolicyCommand(merchantId, body, context));
  }
}
