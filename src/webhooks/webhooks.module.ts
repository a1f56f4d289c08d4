import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { WebhookDeliverer } from './deliver/webhook-deliverer';
import { WebhookEndpoints } from './webhook-endpoints';
import {
  CreateWebhookEndpointHandler,
  DeleteWebhookEndpointHandler,
  GetWebhookEndpointHandler,
  ListWebhookDeliveriesHandler,
  ListWebhookEndpointsHandler,
  ReplayWebhooksHandler,
  RotateWebhookSecretHandler,
} from './webhook-endpoint.handlers';
import { WebhooksController } from './webhooks.controller';

/**
 * Signed webhooks: endpoints and their deliveries. The fan-out from the log is an async projector
 * (fan-out/), run with the others; the deliverer sends what it wrote.
 */
@Module({
  imports: [AuditModule],
  controllers: [WebhooksController],
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
