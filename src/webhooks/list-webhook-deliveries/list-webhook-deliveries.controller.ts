import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { WEBHOOK_ENDPOINT_NOT_FOUND_DOC } from '../webhooks.errors';
import { ListWebhookDeliveriesQuery } from './list-webhook-deliveries.query';
import { ListWebhookDeliveriesRequest } from './list-webhook-deliveries.request.dto';
import { WebhookDeliveryList } from './list-webhook-deliveries.response.dto';

@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class ListWebhookDeliveriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'Recent deliveries with their status and attempts, newest first',
  })
  @ApiOkResponse({ type: WebhookDeliveryList, description: 'Deliveries to the endpoints the key may see' })
  @ApiErrors(WEBHOOK_ENDPOINT_NOT_FOUND_DOC)
  async deliveries(
    @Query() query: ListWebhookDeliveriesRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookDeliveryList> {
    return this.queries.execute(new ListWebhookDeliveriesQuery(principal, query));
  }
}
