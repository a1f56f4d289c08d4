import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { RotatedWebhookSecret } from './rotate-webhook-secret.response.dto';

export class RotateWebhookSecretCommand extends Command<RotatedWebhookSecret> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
  ) {
    super();
  }
}
