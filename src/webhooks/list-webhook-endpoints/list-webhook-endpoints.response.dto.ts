import { ApiProperty } from '@nestjs/swagger';
import { WebhookEndpointDto } from '../webhook-endpoint.response.dto';

export class WebhookEndpointList {
  @ApiProperty({ type: [WebhookEndpointDto] })
  endpoints: WebhookEndpointDto[];
}
