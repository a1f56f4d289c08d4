import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { OnboardMerchant } from '../merchant.decider';
import type { MerchantRecord } from '../merchant-directory';

export class OnboardMerchantCommand extends Command<MerchantRecord> {
  constructor(
    /** The request, converted at the edge to the decider's names (the merchant's events are camelCase). */
    readonly merchant: Pick<OnboardMerchant, 'merchantId' | 'name' | 'environment'>,
    readonly context: CommandContext,
  ) {
    super();
  }
}
