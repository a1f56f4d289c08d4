import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { MerchantNotFoundError } from '../../merchants/merchant.errors';
import { MerchantDirectory } from '../../merchants/merchant-directory';
import { ApiKeyDirectory } from '../api-key-directory';
import { apiKeyDecider } from '../api-key.decider';
import { apiKeyStream } from '../api-key.events';
import { generateApiKey, hashApiKey, newApiKeyId } from '../api-key-secret';
import { PartnerNotFoundError } from '../auth.errors';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandStep } from '../../platform/command-step';
import { MerchantScope } from '../merchant-scope';
import type { Environment, Principal } from '../../platform/identity/principal';
import { IssueApiKeyCommand, type IssueApiKeyResult } from './issue-api-key.command';

@CommandHandler(IssueApiKeyCommand)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKeyCommand> {
  constructor(
    private readonly step: CommandStep,
    private readonly clock: Clock,
    private readonly keys: ApiKeyDirectory,
    private readonly merchants: MerchantDirectory,
    private readonly scope: MerchantScope,
  ) {}

  async execute({ request, context, keyId = newApiKeyId() }: IssueApiKeyCommand): Promise<IssueApiKeyResult> {
    const merchantEnvironment = await this.merchantEnvironment(request, context.principal);
    if (
      request.role === 'partner' &&
      request.partnerId !== undefined &&
      !(await this.keys.partnerExists(request.partnerId))
    ) {
      throw new PartnerNotFoundError(request.partnerId);
    }
    const key = generateApiKey(request.role);
    await this.step.run(
      {
        stream: apiKeyStream(keyId),
        decider: apiKeyDecider,
        command: {
          kind: 'IssueApiKey',
          keyId,
          keyHash: hashApiKey(key),
          ...request,
          merchantEnvironment,
          issuerRole: context.principal.role,
          issuedAt: this.clock.now().toISOString(),
        },
        metadata: eventMetadata(context, request.role === 'merchant' ? request.merchantId : undefined),
      },
      () => undefined,
    );
    // The directory reads the issuance from the log until the read model has applied it.
    return { key, apiKey: (await this.keys.findById(keyId))! };
  }

  /** A merchant key's merchant must exist and be one the issuer may act for; it also gives the key its environment. */
  private async merchantEnvironment(
    request: IssueApiKeyCommand['request'],
    issuer: Principal,
  ): Promise<Environment | undefined> {
    if (request.role !== 'merchant' || request.merchantId === undefined) return undefined;
    await this.scope.assertCanActFor(issuer, request.merchantId);
    const merchant = await this.merchants.find(request.merchantId);
    if (!merchant) throw new MerchantNotFoundError(request.merchantId);
    return merchant.environment;
  }
}
