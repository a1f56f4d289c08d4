import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { PageRequest } from '../platform/page.request.dto';
import { ApiErrors } from '../platform/openapi/api-errors.decorator';
import { ApiKeyDirectory } from './api-key-directory';
import { ApiKeyList, IssuedApiKey, RevokedApiKey, toApiKeyResponse } from './api-key.response';
import { CurrentCommandContext, type CommandContext } from '../platform/identity/command-context';
import { CurrentPrincipal } from '../platform/identity/current-principal.decorator';
import { IssueApiKeyCommand } from './issue-api-key/issue-api-key.command';
import { IssueApiKeyRequest } from './issue-api-key/issue-api-key.request.dto';
import { MerchantScope } from './merchant-scope';
import type { Principal } from '../platform/identity/principal';
import { RevokeApiKeyCommand } from './revoke-api-key/revoke-api-key.command';
import { Roles } from '../platform/identity/roles.decorator';

/** Admins manage every key; a partner manages the merchant keys of its own merchants. */
@ApiTags('Merchants and keys')
@Controller('admin/api-keys')
@Roles('admin', 'partner')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly keys: ApiKeyDirectory,
    private readonly scope: MerchantScope,
  ) {}

  @Post()
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
      merchant: { summary: 'A key for a merchant location', value: { role: 'merchant', merchant_id: 'm-corner-deli-01', name: 'Till 3' } },
      partner: { summary: 'A sandbox key for a new partner', value: { role: 'partner', environment: 'sandbox', name: 'POS vendor test' } },
      replacement: { summary: 'A replacement key for an existing partner', value: { role: 'partner', partner_id: 'key_7Qm2VxR9tLp4Kd8Nw3Zb' } },
      auditor: { summary: 'An auditor key', value: { role: 'auditor', name: 'Compliance review' } },
    },
  })
  @ApiCreatedResponse({ type: IssuedApiKey, description: 'The raw key, this once, and its record' })
  @ApiErrors({
    404: {
      NOT_FOUND: 'The merchant named by merchant_id was never onboarded, or no partner has the partner_id given',
    },
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

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys, a page at a time',
    description:
      "Oldest first, revoked keys included, never the raw key nor its hash. An admin key lists every key; a partner key the keys of the merchants its partner onboarded in the key's environment.",
  })
  @ApiOkResponse({ type: ApiKeyList, description: 'One page of the keys the caller may see' })
  async list(@Query() query: PageRequest, @CurrentPrincipal() principal: Principal): Promise<ApiKeyList> {
    const keys = await this.keys.list(await this.scope.visibleMerchants(principal), query);
    return { api_keys: keys.map(toApiKeyResponse), limit: query.limit, offset: query.offset };
  }

  /** Revoking a revoked key changes nothing and answers 200 with the record as it is. */
  @Delete(':id')
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key at once',
    description:
      'The next request with the key is a 401, on every instance of the service. Revoking a revoked key changes nothing and ' +
      'answers 200 with the key as it is (its first revocation time). A partner key may revoke the keys of its own merchants only.',
  })
  @ApiParam({ name: 'id', description: 'The id of the key (`api_key.id`), not the key itself', example: 'key_4fT9qLm2Xv8RbN3kWc7P' })
  @ApiOkResponse({ type: RevokedApiKey, description: 'The key, revoked' })
  @ApiErrors({ 404: { NOT_FOUND: 'No key has this id, or it is a key the caller may not see' } })
  async revoke(
    @Param('id') id: string,
    @CurrentCommandContext() context: CommandContext,
  ): Promise<RevokedApiKey> {
    const key = await this.commands.execute(new RevokeApiKeyCommand(id, context));
    return { api_key: toApiKeyResponse(key) };
  }
}
