import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { WebhookEndpointDto } from '../webhook-endpoint.response.dto';

export class GetWebhookEndpointQuery extends Query<WebhookEndpointDto> {
  constructor(
    readonly principal: Principal,
    readonly id: string,
  ) {
    super();
  }
}
