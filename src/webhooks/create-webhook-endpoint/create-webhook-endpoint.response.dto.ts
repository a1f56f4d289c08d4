import { ApiProperty } from '@nestjs/swagger';
import { WebhookEndpointDto } from '../webhook-endpoint.response.dto';

export class CreatedWebhookEndpoint extends WebhookEndpointDto {
  @ApiProperty({
    description: 'The signing secret, shown this once (Standard Webhooks `whsec_` form)',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}
