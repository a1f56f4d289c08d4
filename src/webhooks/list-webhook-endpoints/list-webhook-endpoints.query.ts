import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { WebhookEndpointList } from './list-webhook-endpoints.response.dto';

export class ListWebhookEndpointsQuery extends Query<WebhookEndpointList> {
  constructor(readonly principal: Principal) {
    super();
  }
}
