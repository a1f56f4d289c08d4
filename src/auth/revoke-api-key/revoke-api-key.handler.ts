import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { EventStore } from '../../event-store/event-store.port';
import { ApiKeyDirectory, type ApiKeyRecord } from '../api-key-directory';
import { apiKeyDecider } from '../api-key.decider';
import { apiKeyStream } from '../api-key.events';
import { ApiKeyNotFoundError } from '../auth.errors';
import { eventMetadata } from '../command-context';
import { decideAndAppend } from '../../common/decider';
import { MerchantScope } from '../merchant-scope';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

/** Revoked in the log and, in the same transaction, in `rm_api_keys`: the next request with the key is a 401, on every process. */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly keys: ApiKeyDirectory,
    private readonly scope: MerchantScope,
  ) {}

  async execute({ keyId, context }: RevokeApiKeyCommand): Promise<ApiKeyRecord> {
    const key = await this.keys.findById(keyId);
    // A key the caller may not see is answered exactly like one that does not exist.
    if (!key || !(await this.scope.canSee(context.principal, key.merchantId))) throw new ApiKeyNotFoundError(keyId);
    await this.scope.assertCanActFor(context.principal, key.merchantId);
    await decideAndAppend(
      this.store,
      apiKeyStream(keyId),
      apiKeyDecider,
      { kind: 'RevokeApiKey', keyId, revokedAt: this.clock.now().toISOString() },
      eventMetadata(context, key.merchantId),
    );
    return (await this.keys.findById(keyId))!;
  }
}
