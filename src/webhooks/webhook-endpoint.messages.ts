import { Command, Query } from '@nestjs/cqrs';
import type { Principal } from '../platform/identity/principal';
import type { CreateWebhookEndpointRequest, ListWebhookDeliveriesRequest } from './webhook.request.dto';
import type {
  CreatedWebhookEndpoint,
  ReplayedWebhooks,
  RotatedWebhookSecret,
  WebhookDeliveryList,
  WebhookEndpointDto,
  WebhookEndpointList,
} from './webhook.response.dto';

// What the webhooks controller asks of the buses: each acts on, or reads, the caller's own endpoints.

export class CreateWebhookEndpointCommand extends Command<CreatedWebhookEndpoint> {
  constructor(
    readonly principal: Principal,
    readonly request: CreateWebhookEndpointRequest,
  ) {
    super();
  }
}

export class DeleteWebhookEndpointCommand extends Command<void> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
  ) {
    super();
  }
}

export class RotateWebhookSecretCommand extends Command<RotatedWebhookSecret> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
  ) {
    super();
  }
}

export class ReplayWebhooksCommand extends Command<ReplayedWebhooks> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
    readonly from: { position: number } | { since: Date },
  ) {
    super();
  }
}

export class ListWebhookEndpointsQuery extends Query<WebhookEndpointList> {
  constructor(readonly principal: Principal) {
    super();
  }
}

export class GetWebhookEndpointQuery extends Query<WebhookEndpointDto> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
  ) {
    super();
  }
}

export class ListWebhookDeliveriesQuery extends Query<WebhookDeliveryList> {
  constructor(
    readonly principal: Principal,
    readonly filter: ListWebhookDeliveriesRequest,
  ) {
    super();
  }
}
