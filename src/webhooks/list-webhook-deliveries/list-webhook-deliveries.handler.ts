import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from '../webhook-endpoints';
import { ListWebhookDeliveriesQuery } from './list-webhook-deliveries.query';
import { toDeliveryDto, type WebhookDeliveryList } from './list-webhook-deliveries.response.dto';

@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery, WebhookDeliveryList> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, filter }: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    return { deliveries: (await this.endpoints.deliveries(principal, filter)).map(toDeliveryDto) };
  }
}
