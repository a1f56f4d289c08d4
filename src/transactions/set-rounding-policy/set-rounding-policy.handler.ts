import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { MerchantScope } from '../../auth/merchant-scope';
import { MerchantDirectory } from '../../merchants/merchant-directory';
import { MerchantNotFoundError } from '../../merchants/merchant.errors';
import { Clock } from '../../platform/clock';
import { CommandStep } from '../../platform/command-step';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { eventMetadata } from '../../platform/identity/command-context';
import { roundingPolicyOf } from '../read-model/rounding-policies.projector';
import { roundingPolicyDecider } from '../rounding-policy.decider';
import { roundingPolicyStream } from '../rounding-policy.events';
import { SetRoundingPolicyCommand } from './set-rounding-policy.command';
import type { RoundingPolicyAnswer } from './set-rounding-policy.response.dto';

/** Recorded in the log; the answer is read back from `rm_rounding_policies`, inside the same transaction when something was recorded. */
@CommandHandler(SetRoundingPolicyCommand)
export class SetRoundingPolicyHandler implements ICommandHandler<SetRoundingPolicyCommand, RoundingPolicyAnswer> {
  constructor(
    private readonly step: CommandStep,
    private readonly clock: Clock,
    private readonly merchants: MerchantDirectory,
    private readonly scope: MerchantScope,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  async execute({ merchantId, roundingPolicy, context }: SetRoundingPolicyCommand): Promise<RoundingPolicyAnswer> {
    await this.scope.assertCanActFor(context.principal, merchantId);
    // Only an admin gets this far for a merchant that does not exist.
    if (!(await this.merchants.find(merchantId))) throw new MerchantNotFoundError(merchantId);
    const recorded: RoundingPolicyAnswer | undefined = await this.step.run(
      {
        stream: roundingPolicyStream(merchantId),
        decider: roundingPolicyDecider,
        command: {
          kind: 'SetRoundingPolicy',
          merchant_id: merchantId,
          rounding_policy: roundingPolicy,
          now: this.clock.now().toISOString(),
        },
        metadata: eventMetadata(context, merchantId),
      },
      async (tx) => ({ merchant_id: merchantId, ...(await roundingPolicyOf(tx, merchantId)) }),
    );
    // The policy the merchant already had appends nothing, so nothing was answered inside a transaction.
    return recorded ?? { merchant_id: merchantId, ...(await roundingPolicyOf(this.db, merchantId)) };
  }
}
