import { Controller, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { ReadsOnly } from '../../platform/identity/reads-only.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { WEBHOOK_ENDPOINT_ID_PARAM } from '../webhook-endpoint.request.dto';
import { WEBHOOK_ENDPOINT_NOT_FOUND_DOC } from '../webhooks.errors';
import { RotateWebhookSecretCommand } from './rotate-webhook-secret.command';
import { RotatedWebhookSecret } from './rotate-webhook-secret.response.dto';

@ApiTags('Webhooks')
@Controller('webhooks')
@Roles('admin', 'auditor', 'merchant', 'partner')
export class RotateWebhookSecretController {
  constructor(private readonly commands: CommandBus) {}

  @Post('endpoints/:id/rotate-secret')
  @ReadsOnly()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret, shown once; the old one keeps signing for 24 h',
    description:
      'During the overlap every delivery carries two `v1` signatures, one per secret, so the receiver can switch at its own pace.',
  })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiOkResponse({ type: RotatedWebhookSecret, description: 'The new secret' })
  @ApiErrors(WEBHOOK_ENDPOINT_NOT_FOUND_DOC)
  async rotate(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<RotatedWebhookSecret> {
    return this.commands.execute(new RotateWebhookSecretCommand(principal, id));
  }
}
