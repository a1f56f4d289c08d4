import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import { WebhookEndpoints } from './webhook-endpoints';
import {
  CreateWebhookEndpointCommand,
  DeleteWebhookEndpointCommand,
  GetWebhookEndpointQuery,
  ListWebhookDeliveriesQuery,
  ListWebhookEndpointsQuery,
  ReplayWebhooksCommand,
  RotateWebhookSecretCommand,
} from './webhook-endpoint.messages';
import {
  toDeliveryDto,
  toEndpointDto,
  type CreatedWebhookEndpoint,
  type ReplayedWebhooks,
  type RotatedWebhookSecret,
  type WebhookDeliveryList,
  type WebhookEndpointDto,
  type WebhookEndpointList,
} from './webhook.response.dto';

/*
 * Endpoints are configuration, not records of the log: the handlers write and read their tables
 * through WebhookEndpoints, which scopes every row to its owner, and shape the answers.
 */

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

@CommandHandler(DeleteWebhookEndpointCommand)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpointCommand, void> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  execute({ principal, id }: DeleteWebhookEndpointCommand): Promise<void> {
    return this.endpoints.delete(principal, id);
  }
}

@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand, RotatedWebhookSecret> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, id }: RotateWebhookSecretCommand): Promise<RotatedWebhookSecret> {
    const { endpoint, secret } = await this.endpoints.rotate(principal, id);
    return { secret, previous_secret_expires_at: endpoint.previous_secret_expires_at!.toISOString() };
  }
}

@CommandHandler(ReplayWebhooksCommand)
export class ReplayWebhooksHandler implements ICommandHandler<ReplayWebhooksCommand, ReplayedWebhooks> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, id, from }: ReplayWebhooksCommand): Promise<ReplayedWebhooks> {
    return { replayed: await this.endpoints.replay(principal, id, from) };
  }
}

@QueryHandler(ListWebhookEndpointsQuery)
export class ListWebhookEndpointsHandler implements IQueryHandler<ListWebhookEndpointsQuery, WebhookEndpointList> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal }: ListWebhookEndpointsQuery): Promise<WebhookEndpointList> {
    return { endpoints: (await this.endpoints.list(principal)).map(toEndpointDto) };
  }
}

@QueryHandler(GetWebhookEndpointQuery)
export class GetWebhookEndpointHandler implements IQueryHandler<GetWebhookEndpointQuery, WebhookEndpointDto> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, id }: GetWebhookEndpointQuery): Promise<WebhookEndpointDto> {
    return toEndpointDto(await this.endpoints.get(principal, id));
  }
}

@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery, WebhookDeliveryList> {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute({ principal, filter }: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    return { deliveries: (await this.endpoints.deliveries(principal, filter)).map(toDeliveryDto) };
  }
}
