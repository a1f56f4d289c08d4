import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { ReplayedWebhooks } from './replay-webhooks.response.dto';

export class ReplayWebhooksCommand extends Command<ReplayedWebhooks> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
    readonly from: { position: number } | { since: Date },
  ) {
    super();
  }
}
