import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { ApiKeyDirectory, type ApiKeyRecord } from '../api-key-directory';
import { ApiKeyRevocationFeed, announceRevocation } from '../api-key-revocation-feed';
import { apiKeyDecider } from '../api-key.decider';
import { apiKeyStream } from '../api-key.events';
import { ApiKeyNotFoundError } from '../auth.errors';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandStep } from '../../platform/command-step';
import { MerchantScope } from '../merchant-scope';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

/**
 * Revoked in the log, and announced to every process by the same transaction (announceRevocation);
 * answered once every process has dropped the key from its cache: the next request with the key is
 * a 401, on every process, as the look-ups read the revocations `rm_api_keys` has not applied yet.
 */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    private readonly step: CommandStep,
    private readonly clock: Clock,
    private readonly keys: ApiKeyDirectory,
    private readonly scope: MerchantScope,
    private readonly revocations: ApiKeyRevocationFeed,
  ) {}

  async execute({ keyId, context }: RevokeApiKeyCommand): Promise<ApiKeyRecord> {
    const key = await this.keys.findById(keyId);
    // A key the caller may not see is answered exactly like one that does not exist.
    if (!key || !(await this.scope.canSee(context.principal, key.merchantId))) throw new ApiKeyNotFoundError(keyId);
    await this.scope.assertCanActFor(context.principal, key.merchantId);
    // The answer runs only when the decider revoked: a revoked key's second revocation commits nothing to wait for.
    await this.revocations.revokeEverywhere(keyId, async () => {
      let revoked = false;
      await this.step.run(
        {
          stream: apiKeyStream(keyId),
          decider: apiKeyDecider,
          command: { kind: 'RevokeApiKey', keyId, revokedAt: this.clock.now().toISOString() },
          metadata: eventMetadata(context, key.merchantId),
        },
        (tx) => {
          announceRevocation(tx, keyId);
          revoked = true;
        },
      );
      return revoked;
    });
    return (await this.keys.findById(keyId))!;
  }
}
