import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from '../webhook-endpoints';
import { toEndpointDto } from '../webhook-endpoint.response.dto';
import { ListWebhookEndpointsQuery } from './list-webhook-endpoints.query';
import type { WebhookEndpointList } from './list-webhook-endpoints.response.dto';

@QueryHandler(ListWebhookEndpointsQuery)
export class ListWebhookEndpointsHandler implements IQueryHandler<ListWebhookEndpointsQuery, WebhookEndpointList> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal }: ListWebhookEndpointsQuery): Promise<WebhookEndpointList> {
    return { endpoints: (await this.endpoints.list(principal)).map(toEndpointDto) };
  }
}
