import { Body, Controller, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { InvalidFieldError } from '../../platform/errors/request.errors';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { ReadsOnly } from '../../platform/identity/reads-only.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { WEBHOOK_ENDPOINT_ID_PARAM } from '../webhook-endpoint.request.dto';
import { WEBHOOK_ENDPOINT_NOT_FOUND_DOC } from '../webhooks.errors';
import { ReplayWebhooksCommand } from './replay-webhooks.command';
import { ReplayWebhooksRequest } from './replay-webhooks.request.dto';
import { ReplayedWebhooks } from './replay-webhooks.response.dto';

@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class ReplayWebhooksController {
  constructor(private readonly commands: CommandBus) {}

  @Post('endpoints/:id/replay')
  @ReadsOnly()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'replayWebhooks',
    summary: 'Send an endpoint’s deliveries again, from a log position or since an instant',
    description:
      'Each with its original `webhook-id`, so a receiver that processed it can tell. Delivered and failed ones are sent again, ' +
      'and pending retries at once; a disabled endpoint is enabled again.',
  })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiBody({
    type: ReplayWebhooksRequest,
    examples: {
      position: { summary: 'From a log position', value: { from_position: 120 } },
      since: { summary: 'Since an instant', value: { since: '2026-11-26T09:00:00Z' } },
    },
  })
  @ApiOkResponse({ type: ReplayedWebhooks, description: 'How many deliveries were queued' })
  @ApiErrors(WEBHOOK_ENDPOINT_NOT_FOUND_DOC)
  async replay(
    @Param('id') id: string,
    @Body() body: ReplayWebhooksRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ReplayedWebhooks> {
    if ((body.from_position === undefined) === (body.since === undefined))
      throw new InvalidFieldError('from_position', 'Send exactly one of from_position and since');
    const from = body.from_position !== undefined ? { position: body.from_position } : { since: new Date(body.since!) };
    return this.commands.execute(new ReplayWebhooksCommand(principal, id, from));
  }
}
