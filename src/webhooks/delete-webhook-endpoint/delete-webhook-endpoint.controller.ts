import { Controller, Delete, HttpCode, HttpStatus, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { ReadsOnly } from '../../platform/identity/reads-only.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { WEBHOOK_ENDPOINT_ID_PARAM } from '../webhook-endpoint.request.dto';
import { WEBHOOK_ENDPOINT_NOT_FOUND_DOC } from '../webhooks.errors';
import { DeleteWebhookEndpointCommand } from './delete-webhook-endpoint.command';

@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class DeleteWebhookEndpointController {
  constructor(private readonly commands: CommandBus) {}

  @Delete('endpoints/:id')
  @ReadsOnly()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Unsubscribe: the endpoint and its deliveries are deleted',
  })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(WEBHOOK_ENDPOINT_NOT_FOUND_DOC)
  async delete(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(new DeleteWebhookEndpointCommand(principal, id));
  }
}
