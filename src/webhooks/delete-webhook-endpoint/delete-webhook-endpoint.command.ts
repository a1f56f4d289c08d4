import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';

export class DeleteWebhookEndpointCommand extends Command<void> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
  ) {
    super();
  }
}
