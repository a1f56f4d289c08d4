import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from '../webhook-endpoints';
import { RotateWebhookSecretCommand } from './rotate-webhook-secret.command';
import type { RotatedWebhookSecret } from './rotate-webhook-secret.response.dto';

@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand, RotatedWebhookSecret> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, id }: RotateWebhookSecretCommand): Promise<RotatedWebhookSecret> {
    const { endpoint, secret } = await this.endpoints.rotate(principal, id);
    return { secret, previous_secret_expires_at: endpoint.previous_secret_expires_at!.toISOString() };
  }
}
