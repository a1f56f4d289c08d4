import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { CreateWebhookEndpointRequest } from './create-webhook-endpoint.request.dto';
import type { CreatedWebhookEndpoint } from './create-webhook-endpoint.response.dto';

export class CreateWebhookEndpointCommand extends Command<CreatedWebhookEndpoint> {
  constructor(
    readonly principal: Principal,
    readonly request: CreateWebhookEndpointRequest,
  ) {
    super();
  }
}
