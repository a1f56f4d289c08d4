import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from '../webhook-endpoints';
import { toEndpointDto } from '../webhook-endpoint.response.dto';
import { CreateWebhookEndpointCommand } from './create-webhook-endpoint.command';
import type { CreatedWebhookEndpoint } from './create-webhook-endpoint.response.dto';

@CommandHandler(CreateWebhookEndpointCommand)
export class CreateWebhookEndpointHandler implements ICommandHandler<
  CreateWebhookEndpointCommand,
  CreatedWebhookEndpoint
> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, request }: CreateWebhookEndpointCommand): Promise<CreatedWebhookEndpoint> {
    const { endpoint, secret } = await this.endpoints.create(principal, request);
    return { ...toEndpointDto(endpoint), secret };
  }
}
