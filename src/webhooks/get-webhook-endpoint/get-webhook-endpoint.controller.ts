import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { WEBHOOK_ENDPOINT_ID_PARAM } from '../webhook-endpoint.request.dto';
import { WebhookEndpointDto } from '../webhook-endpoint.response.dto';
import { WEBHOOK_ENDPOINT_NOT_FOUND_DOC } from '../webhooks.errors';
import { GetWebhookEndpointQuery } from './get-webhook-endpoint.query';

@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class GetWebhookEndpointController {
  constructor(private readonly queries: QueryBus) {}

  @Get('endpoints/:id')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'One endpoint, without its secret' })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiOkResponse({ type: WebhookEndpointDto, description: 'The endpoint' })
  @ApiErrors(WEBHOOK_ENDPOINT_NOT_FOUND_DOC)
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointDto> {
    return this.queries.execute(new GetWebhookEndpointQuery(principal, id));
  }
}
