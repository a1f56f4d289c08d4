import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from '../webhook-endpoints';
import { DeleteWebhookEndpointCommand } from './delete-webhook-endpoint.command';

@CommandHandler(DeleteWebhookEndpointCommand)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpointCommand, void> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  execute({ principal, id }: DeleteWebhookEndpointCommand): Promise<void> {
    return this.endpoints.delete(principal, id);
  }
}
