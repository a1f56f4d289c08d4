import { Controller, Delete, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { RevokedApiKey, toApiKeyResponse } from '../api-key.response.dto';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { RevokeApiKeyCommand } from './revoke-api-key.command';
import { Roles } from '../../platform/identity/roles.decorator';
import { AppendsToLog } from '../../platform/as-of-position';

/** Admins manage every key; a partner manages the merchant keys of its own merchants. */
@ApiTags('Merchants and keys')
@Controller('admin/api-keys')
@Roles('admin', 'partner')
export class RevokeApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  /** Revoking a revoked key changes nothing and answers 200 with the record as it is. */
  @Delete(':id')
  @AppendsToLog()
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key at once',
    description:
      'The next request with the key is a 401, on every instance of the service: the answer comes once every instance has ' +
      'confirmed (at most 5 s after the revocation is recorded). Revoking a revoked key changes nothing and ' +
      'answers 200 with the key as it is (its first revocation time). A partner key may revoke the keys of its own merchants only.',
  })
  @ApiParam({
    name: 'id',
    description: 'The id of the key (`api_key.id`), not the key itself',
    example: 'key_4fT9qLm2Xv8RbN3kWc7P',
  })
  @ApiOkResponse({ type: RevokedApiKey, description: 'The key, revoked' })
  @ApiErrors({ 404: { NOT_FOUND: 'No key has this id, or it is a key the caller may not see' } })
  async revoke(@Param('id') id: string, @CurrentCommandContext() context: CommandContext): Promise<RevokedApiKey> {
    const key = await this.commands.execute(new RevokeApiKeyCommand(id, context));
    return { api_key: toApiKeyResponse(key) };
  }
}
