import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { Environment } from '../../platform/identity/principal';
import type { MerchantRecord } from '../merchant-directory';

export class OnboardMerchantCommand extends Command<MerchantRecord> {
  constructor(
    readonly merchant: { merchantId: string; name: string; environment: Environment },
    readonly context: CommandContext,
  ) {
    super();
  }
}
