import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ListWebhookEndpointsQuery } from './list-webhook-endpoints.query';
import { WebhookEndpointList } from './list-webhook-endpoints.response.dto';

@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class ListWebhookEndpointsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('endpoints')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List the endpoints of the key’s owner',
    description: 'Oldest first, never a secret. An admin key lists every endpoint.',
  })
  @ApiOkResponse({ type: WebhookEndpointList, description: 'The endpoints the key may see' })
  async list(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointList> {
    return this.queries.execute(new ListWebhookEndpointsQuery(principal));
  }
}
