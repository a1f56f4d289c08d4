import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { InvalidFieldError } from '../platform/errors/request.errors';
import { CurrentPrincipal } from '../platform/identity/current-principal.decorator';
import type { Principal } from '../platform/identity/principal';
import { ReadsOnly } from '../platform/identity/reads-only.decorator';
import { Roles } from '../platform/identity/roles.decorator';
import { ApiErrors } from '../platform/openapi/api-errors.decorator';
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
  CreateWebhookEndpointRequest,
  ListWebhookDeliveriesRequest,
  ReplayWebhooksRequest,
} from './webhook.request.dto';
import {
  CreatedWebhookEndpoint,
  ReplayedWebhooks,
  RotatedWebhookSecret,
  WebhookDeliveryList,
  WebhookEndpointDto,
  WebhookEndpointList,
} from './webhook.response.dto';

const ENDPOINT_ID = { name: 'id', description: 'The endpoint id', example: 'we_3kTn0VJ8cQm1x2Lb' };
const NOT_FOUND = { 404: { NOT_FOUND: 'No endpoint has this id, or it belongs to another owner' } };

/**
 * Signed webhooks (Standard Webhooks 1.0). Every key role manages its owner's endpoints; an
 * auditor's are changes to its subscriptions, not to any record, so its key may make them
 * (`@ReadsOnly`).
 */
@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

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

  @Get('endpoints')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List the endpoints of the key’s owner',
    description: 'Oldest first, never a secret. An admin key lists every endpoint.',
  })
  @ApiOkResponse({ type: WebhookEndpointList, description: 'The endpoints the key may see' })
  async list(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointList> {
    return this.queries.execute(new ListWebhookEndpointsQuery(principal));
  }

  @Get('endpoints/:id')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'One endpoint, without its secret' })
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointDto, description: 'The endpoint' })
  @ApiErrors(NOT_FOUND)
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointDto> {
    return this.queries.execute(new GetWebhookEndpointQuery(principal, id));
  }

  @Delete('endpoints/:id')
  @ReadsOnly()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Unsubscribe: the endpoint and its deliveries are deleted',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(NOT_FOUND)
  async delete(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(new DeleteWebhookEndpointCommand(principal, id));
  }

  @Post('endpoints/:id/rotate-secret')
  @ReadsOnly()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret, shown once; the old one keeps signing for 24 h',
    description:
      'During the overlap every delivery carries two `v1` signatures, one per secret, so the receiver can switch at its own pace.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: RotatedWebhookSecret, description: 'The new secret' })
  @ApiErrors(NOT_FOUND)
  async rotate(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<RotatedWebhookSecret> {
    return this.commands.execute(new RotateWebhookSecretCommand(principal, id));
  }

  @Post('endpoints/:id/replay')
  @ReadsOnly()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'replayWebhooks',
    summary: 'Send an endpoint’s deliveries again, from a log position or since an instant',
    description:
      'Each with its original `webhook-id`, so a receiver that processed it can tell. Delivered and failed ones are sent again, ' +
      'and pending retries at once; a disabled endpoint is enabled again.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiBody({
    type: ReplayWebhooksRequest,
    examples: {
      position: { summary: 'From a log position', value: { from_position: 120 } },
      since: { summary: 'Since an instant', value: { since: '2026-11-26T09:00:00Z' } },
    },
  })
  @ApiOkResponse({ type: ReplayedWebhooks, description: 'How many deliveries were queued' })
  @ApiErrors(NOT_FOUND)
  async replay(
    @Param('id') id: string,
    @Body() body: ReplayWebhooksRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ReplayedWebhooks> {
    if ((body.from_position === undefined) === (body.since === undefined))
      throw new InvalidFieldError('from_position', 'Send exactly one of from_position and since');
    const from = body.from_position !== undefined ? { position: body.from_position } : { since: new Date(body.since!) };
    return this.commands.execute(new ReplayWebhooksCommand(principal, id, from));
  }

  @Get('deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'Recent deliveries with their status and attempts, newest first',
  })
  @ApiOkResponse({ type: WebhookDeliveryList, description: 'Deliveries to the endpoints the key may see' })
  @ApiErrors(NOT_FOUND)
  async deliveries(
    @Query() query: ListWebhookDeliveriesRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookDeliveryList> {
    return this.queries.execute(new ListWebhookDeliveriesQuery(principal, query));
  }
}
