import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from '../webhook-endpoints';
import { toEndpointDto, type WebhookEndpointDto } from '../webhook-endpoint.response.dto';
import { GetWebhookEndpointQuery } from './get-webhook-endpoint.query';

@QueryHandler(GetWebhookEndpointQuery)
export class GetWebhookEndpointHandler implements IQueryHandler<GetWebhookEndpointQuery, WebhookEndpointDto> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, id }: GetWebhookEndpointQuery): Promise<WebhookEndpointDto> {
    return toEndpointDto(await this.endpoints.get(principal, id));
  }
}
