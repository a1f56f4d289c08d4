import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { IssuedApiKey, toApiKeyResponse } from '../api-key.response.dto';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { IssueApiKeyCommand } from './issue-api-key.command';
import { IssueApiKeyRequest } from './issue-api-key.request.dto';
import { Roles } from '../../platform/identity/roles.decorator';
import { AppendsToLog } from '../../platform/as-of-position';

/** Admins manage every key; a partner manages the merchant keys of its own merchants. */
@ApiTags('Merchants and keys')
@Controller('admin/api-keys')
@Roles('admin', 'partner')
export class IssueApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @AppendsToLog()
  @ApiOperation({
    operationId: 'issueApiKey',
    summary: 'Issue an API key, shown once',
    description:
      'Answers the raw key this once; only its SHA-256 hash is stored, so a lost key is revoked and replaced. ' +
      'A merchant key needs `merchant_id` (refused for any other role) and takes the environment of its merchant; ' +
      'any other key is production unless `environment` says otherwise. A partner key without `partner_id` starts a new ' +
      "partner; with it, it replaces a key of that partner and keeps the partner's merchants. " +
      'A partner key may issue merchant keys only, for merchants its partner onboarded (403 otherwise).',
  })
  @ApiBody({
    type: IssueApiKeyRequest,
    examples: {
      merchant: {
        summary: 'A key for a merchant location',
        value: { role: 'merchant', merchant_id: 'm-corner-deli-01', name: 'Till 3' },
      },
      partner: {
        summary: 'A sandbox key for a new partner',
        value: { role: 'partner', environment: 'sandbox', name: 'POS vendor test' },
      },
      replacement: {
        summary: 'A replacement key for an existing partner',
        value: { role: 'partner', partner_id: 'key_7Qm2VxR9tLp4Kd8Nw3Zb' },
      },
      auditor: { summary: 'An auditor key', value: { role: 'auditor', name: 'Compliance review' } },
    },
  })
  @ApiCreatedResponse({ type: IssuedApiKey, description: 'The raw key, this once, and its record' })
  @ApiErrors({
    404: {
      NOT_FOUND: 'The merchant named by merchant_id was never onboarded, or no partner has the partner_id given',
    },
    409: { API_KEY_ALREADY_ISSUED: 'The newly drawn random key id was already taken (about never); retry' },
  })
  async issue(
    @Body() body: IssueApiKeyRequest,
    @CurrentCommandContext() context: CommandContext,
  ): Promise<IssuedApiKey> {
    const request = {
      role: body.role,
      merchantId: body.merchant_id,
      environment: body.environment,
      name: body.name,
      partnerId: body.partner_id,
    };
    const { key, apiKey } = await this.commands.execute(new IssueApiKeyCommand(request, context));
    return { key, api_key: toApiKeyResponse(apiKey) };
  }
}
