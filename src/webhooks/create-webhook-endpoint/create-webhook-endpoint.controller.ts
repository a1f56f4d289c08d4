import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { ReadsOnly } from '../../platform/identity/reads-only.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { CreateWebhookEndpointCommand } from './create-webhook-endpoint.command';
import { CreateWebhookEndpointRequest } from './create-webhook-endpoint.request.dto';
import { CreatedWebhookEndpoint } from './create-webhook-endpoint.response.dto';

/**
 * Signed webhooks (Standard Webhooks 1.0). Every key role manages its owner's endpoints; an
 * auditor's are changes to its subscriptions, not to any record, so its key may make them
 * (`@ReadsOnly`, here and on the other routes that change an endpoint).
 */
@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class CreateWebhookEndpointController {
  constructor(private readonly commands: CommandBus) {}

  @Post('endpoints')
  @ReadsOnly()
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Subscribe a URL to events; the signing secret is shown once',
    description:
      'The endpoint receives the events of the log entries appended after it was made, of its owner: a merchant key its merchant’s, ' +
      'a partner key its merchants’, admin and auditor keys every merchant’s. `chain.alarm` goes to admin and auditor endpoints only. ' +
      'The URL is refused when its host resolves to an address that is not global unicast (loopback, private, link-local, metadata, ' +
      'TEST-NET, CGNAT, multicast, reserved and the other IANA special-purpose ranges, IPv4 and IPv6) or to an address of the service’s own host ' +
      '(unless the service runs with WEBHOOK_ALLOW_PRIVATE=true); it is checked again before every delivery. An owner has at most ' +
      'WEBHOOK_MAX_ENDPOINTS endpoints (default 20).',
  })
  @ApiBody({
    type: CreateWebhookEndpointRequest,
    examples: {
      merchant: {
        summary: 'A back office told of voids and refunds',
        value: {
          url: 'https://pos.example.com/hooks/crcs',
          event_types: ['transaction.voided', 'transaction.refunded', 'refund.normalization_failed'],
          description: 'Back office, store 12',
        },
      },
      compliance: {
        summary: 'A compliance tool told of alarms and rule changes (admin or auditor key)',
        value: {
          url: 'https://compliance.example.com/crcs',
          event_types: ['chain.alarm', 'jurisdiction.rule.scheduled', 'jurisdiction.rule.effective'],
        },
      },
    },
  })
  @ApiCreatedResponse({ type: CreatedWebhookEndpoint, description: 'The endpoint, with its secret this once' })
  @ApiErrors({
    400: {
      WEBHOOK_URL_REFUSED:
        'The URL is not http(s), or its host does not resolve, or resolves to an address that is not global unicast or is the service’s own',
    },
    409: { WEBHOOK_ENDPOINT_LIMIT_REACHED: 'The owner has WEBHOOK_MAX_ENDPOINTS endpoints already' },
  })
  async create(
    @Body() body: CreateWebhookEndpointRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CreatedWebhookEndpoint> {
    return this.commands.execute(new CreateWebhookEndpointCommand(principal, body));
  }
}
