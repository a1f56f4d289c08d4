import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from '../webhook-endpoints';
import { ReplayWebhooksCommand } from './replay-webhooks.command';
import type { ReplayedWebhooks } from './replay-webhooks.response.dto';

@CommandHandler(ReplayWebhooksCommand)
export class ReplayWebhooksHandler implements ICommandHandler<ReplayWebhooksCommand, ReplayedWebhooks> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, id, from }: ReplayWebhooksCommand): Promise<ReplayedWebhooks> {
    return { replayed: await this.endpoints.replay(principal, id, from) };
  }
}
