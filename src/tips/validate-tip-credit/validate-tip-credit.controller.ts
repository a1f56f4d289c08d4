import { Body, Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest } from '../../platform/idempotency/idempotency.interceptor';
import { TipPost } from '../tip-route';
import { ValidateTipCreditCommand } from './validate-tip-credit.command';
import { ValidateTipCreditResponse } from './validate-tip-credit.response.dto';
import { ValidateTipCreditRequest } from './validate-tip-credit.request.dto';

@Controller()
export class ValidateTipCreditController {
  constructor(private readonly commands: CommandBus) {}

  @TipPost('tip/validate-compliance')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'checkTipCredit',
    summary: 'Check a wage and average tips against FLSA and the state’s tip credit rules',
    description:
      'FLSA: the cash wage must reach the tipped minimum cash wage, and the wage plus tips the minimum wage. The state: where it bans the tip credit, the cash ' +
      'wage alone must reach its minimum wage; otherwise its tipped minimum cash wage, and wage plus tips its minimum wage; a city’s or county’s own law is ' +
      'checked the same way beside it. The answer is `compliant`, `non_compliant` (a requirement failed, each listed with what it required and got) or ' +
      '`unknown` (`compliant: null`, with a reason code): a place inside a city or county with its own minimum-wage law whose figures in force are missing ' +
      'is unknown, never checked on the state’s figures alone; a state whose figures differ by region, with no county or ZIP code, is unknown unless the ' +
      'wage settles it the same way in every region. The answer names the records applied and the least of their confidences. ' +
      'Amounts are dollars an hour; a fraction of a cent is dropped, so that it can never carry a wage over a minimum. ' +
      'The check is recorded in the audit chain; a wage plus tips under the federal minimum is a flag of `GET /analytics/tip-wage-theft`.',
  })
  @ApiCreatedResponse({
    type: ValidateTipCreditResponse,
    description:
      'The check: compliant, non_compliant or unknown, which requirement failed, and what could not be settled',
  })
  validateCompliance(
    @Body() body: ValidateTipCreditRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<ValidateTipCreditResponse> {
    return this.commands.execute(new ValidateTipCreditCommand(body, context, idempotency));
  }
}
