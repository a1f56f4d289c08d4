import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { ListWebhookDeliveriesRequest } from './list-webhook-deliveries.request.dto';
import type { WebhookDeliveryList } from './list-webhook-deliveries.response.dto';

export class ListWebhookDeliveriesQuery extends Query<WebhookDeliveryList> {
  constructor(
    readonly principal: Principal,
    readonly filter: ListWebhookDeliveriesRequest,
  ) {
    super();
  }
}
