import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { eventMetadata } from '../../auth/command-context';
import { decideAndAppend } from '../../common/decider';
import { Clock } from '../../common/clock';
import { EventStore } from '../../event-store/event-store.port';
import { merchantDecider } from '../merchant.decider';
import { merchantStream } from '../merchant.events';
import { MerchantDirectory, type MerchantRecord } from '../merchant-directory';
import { OnboardMerchantCommand } from './onboard-merchant.command';

/** A merchant onboarded with a partner key belongs to that key's partner. */
@CommandHandler(OnboardMerchantCommand)
export class OnboardMerchantHandler implements ICommandHandler<OnboardMerchantCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly merchants: MerchantDirectory,
  ) {}

  async execute({ merchant, context }: OnboardMerchantCommand): Promise<MerchantRecord> {
    const { role, environment, partnerId } = context.principal;
    await decideAndAppend(
      this.store,
      merchantStream(merchant.merchantId),
      merchantDecider,
      {
        kind: 'OnboardMerchant',
        ...merchant,
        onboardedBy: { role, environment, partnerId },
        onboardedAt: this.clock.now().toISOString(),
      },
      eventMetadata(context, merchant.merchantId),
    );
    return (await this.merchants.find(merchant.merchantId))!;
  }
}
