/** What other features may use of this one: everything else in the folder is its own. */
export { WebhooksModule } from './webhooks.module';
export { webhookFanOutProjector } from './fan-out/webhook-fan-out.projector';
export { withWebhookEvents } from './webhook-events.openapi';
