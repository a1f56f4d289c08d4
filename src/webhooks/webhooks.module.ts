import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CreateWebhookEndpointController } from './create-webhook-endpoint/create-webhook-endpoint.controller';
import { CreateWebhookEndpointHandler } from './create-webhook-endpoint/create-webhook-endpoint.handler';
import { DeleteWebhookEndpointController } from './delete-webhook-endpoint/delete-webhook-endpoint.controller';
import { DeleteWebhookEndpointHandler } from './delete-webhook-endpoint/delete-webhook-endpoint.handler';
import { WebhookDeliverer } from './deliver/webhook-deliverer';
import { GetWebhookEndpointController } from './get-webhook-endpoint/get-webhook-endpoint.controller';
import { GetWebhookEndpointHandler } from './get-webhook-endpoint/get-webhook-endpoint.handler';
import { ListWebhookDeliveriesController } from './list-webhook-deliveries/list-webhook-deliveries.controller';
import { ListWebhookDeliveriesHandler } from './list-webhook-deliveries/list-webhook-deliveries.handler';
import { ListWebhookEndpointsController } from './list-webhook-endpoints/list-webhook-endpoints.controller';
import { ListWebhookEndpointsHandler } from './list-webhook-endpoints/list-webhook-endpoints.handler';
import { ReplayWebhooksController } from './replay-webhooks/replay-webhooks.controller';
import { ReplayWebhooksHandler } from './replay-webhooks/replay-webhooks.handler';
import { RotateWebhookSecretController } from './rotate-webhook-secret/rotate-webhook-secret.controller';
import { RotateWebhookSecretHandler } from './rotate-webhook-secret/rotate-webhook-secret.handler';
import { WebhookEndpoints } from './webhook-endpoints';

/**
 * Signed webhooks: endpoints and their deliveries. Endpoints are configuration, not records of the
 * log: the use cases' handlers write and read their tables through WebhookEndpoints, which scopes
 * every row to its owner. The fan-out from the log is an async projector (fan-out/), run with the
 * others; the deliverer sends what it wrote.
 */
@Module({
  imports: [AuditModule],
  // In the order of the routes in the OpenAPI document.
  controllers: [
    CreateWebhookEndpointController,
    ListWebhookEndpointsController,
    GetWebhookEndpointController,
    DeleteWebhookEndpointController,
    RotateWebhookSecretController,
    ReplayWebhooksController,
    ListWebhookDeliveriesController,
  ],
  providers: [
    WebhookEndpoints,
    WebhookDeliverer,
    CreateWebhookEndpointHandler,
    DeleteWebhookEndpointHandler,
    RotateWebhookSecretHandler,
    ReplayWebhooksHandler,
    ListWebhookEndpointsHandler,
    GetWebhookEndpointHandler,
    ListWebhookDeliveriesHandler,
  ],
})
export class WebhooksModule {}
