import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PageRequest } from '../common/page.request.dto';
import { ApiKeyDirectory } from './api-key-directory';
import { toApiKeyResponse, type ApiKeyResponse } from './api-key.response';
import { CorrelationId } from './command-context';
import { CurrentPrincipal } from './current-principal.decorator';
import { IssueApiKeyCommand } from './issue-api-key/issue-api-key.command';
import { IssueApiKeyRequest } from './issue-api-key/issue-api-key.request.dto';
import { MerchantScope } from './merchant-scope';
import type { Principal } from './principal';
import { RevokeApiKeyCommand } from './revoke-api-key/revoke-api-key.command';
import { Roles } from './roles.decorator';

/** Admins manage every key; a partner manages the merchant keys of its own merchants. */
@Controller('admin/api-keys')
@Roles('admin', 'partner')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly keys: ApiKeyDirectory,
    private readonly scope: MerchantScope,
  ) {}

  @Post()
  async issue(
    @Body() body: IssueApiKeyRequest,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
  ): Promise<{ key: string; api_key: ApiKeyResponse }> {
    const request = {
      role: body.role,
      merchantId: body.merchant_id,
      environment: body.environment,
      name: body.name,
      partnerId: body.partner_id,
    };
    const { key, apiKey } = await this.commands.execute(new IssueApiKeyCommand(request, { principal, correlationId }));
    return { key, api_key: toApiKeyResponse(apiKey) };
  }

  @Get()
  async list(
    @Query() query: PageRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<{ api_keys: ApiKeyResponse[]; limit: number; offset: number }> {
    const keys = await this.keys.list(await this.scope.visibleMerchants(principal), query);
    return { api_keys: keys.map(toApiKeyResponse), limit: query.limit, offset: query.offset };
  }

  /** Revoking a revoked key changes nothing and answers 200 with the record as it is. */
  @Delete(':id')
  async revoke(
    @Param('id') id: string,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
  ): Promise<{ api_key: ApiKeyResponse }> {
    const key = await this.commands.execute(new RevokeApiKeyCommand(id, { principal, correlationId }));
    return { api_key: toApiKeyResponse(key) };
  }
}
