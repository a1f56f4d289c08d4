import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandStep } from '../../platform/command-step';
import { Clock } from '../../platform/clock';
import { merchantDecider } from '../merchant.decider';
import { merchantStream, type MerchantOnboarded } from '../merchant.events';
import { merchantDifferingInCase, type MerchantRecord } from '../merchant-directory';
import { MerchantAlreadyExistsError } from '../merchant.errors';
import { OnboardMerchantCommand } from './onboard-merchant.command';

/** A merchant onboarded with a partner key belongs to that key's partner. An id differing from another only in case is refused. */
@CommandHandler(OnboardMerchantCommand)
export class OnboardMerchantHandler implements ICommandHandler<OnboardMerchantCommand> {
  constructor(
    private readonly step: CommandStep,
    private readonly clock: Clock,
  ) {}

  async execute({ merchant, context }: OnboardMerchantCommand): Promise<MerchantRecord> {
    const { role, environment, partnerId } = context.principal;
    return this.step.run(
      {
        stream: merchantStream(merchant.merchantId),
        decider: merchantDecider,
        command: {
          kind: 'OnboardMerchant',
          ...merchant,
          onboardedBy: { role, environment, partnerId },
          onboardedAt: this.clock.now().toISOString(),
        },
        metadata: eventMetadata(context, merchant.merchantId),
      },
      // Under the chain-head lock, where the log holds this onboarding: of two ids differing only in case sent at once, the second is refused.
      async (tx, [onboarded]) => {
        const existing = await merchantDifferingInCase(tx, merchant.merchantId);
        if (existing !== undefined) throw new MerchantAlreadyExistsError(merchant.merchantId, existing);
        return (onboarded as unknown as MerchantOnboarded).data;
      },
    );
  }
}
