import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { MerchantScope } from '../../auth/merchant-scope';
import { MerchantDirectory } from '../../merchants/merchant-directory';
import { MerchantNotFoundError } from '../../merchants/merchant.errors';
import { Clock } from '../../platform/clock';
import { CommandStep } from '../../platform/command-step';
import { DATABASE, prepared, type Database, type Sql } from '../../platform/event-store/sql';
import { eventMetadata } from '../../platform/identity/command-context';
import { roundingPolicyDecider } from '../rounding-policy.decider';
import { roundingPolicyStream, type RoundingPolicySet } from '../rounding-policy.events';
import type { RoundingPolicy } from '../../rules/rounding-policy';
import { SetRoundingPolicyCommand } from './set-rounding-policy.command';
import type { RoundingPolicyAnswer } from './set-rounding-policy.response.dto';

/** Recorded in the log; the answer is read back from the log, inside the same transaction when something was recorded. */
@CommandHandler(SetRoundingPolicyCommand)
export class SetRoundingPolicyHandler implements ICommandHandler<SetRoundingPolicyCommand, RoundingPolicyAnswer> {
  constructor(
    private readonly step: CommandStep,
    private readonly clock: Clock,
    private readonly merchants: MerchantDirectory,
    private readonly scope: MerchantScope,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  async execute({ merchantId, request, context }: SetRoundingPolicyCommand): Promise<RoundingPolicyAnswer> {
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
          request,
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

const LAST_SET = prepared('select data from events where stream_id = $1 order by stream_revision desc limit 1');

/** The merchant's policy as the last entry of its stream sets it (none: never set, so the rule's). */
async function roundingPolicyOf(
  sql: Sql,
  merchantId: string,
): Promise<{ rounding_policy: RoundingPolicy; set_at: string | null }> {
  const [last] = await sql.query<{ data: RoundingPolicySet['data'] }>(LAST_SET, [roundingPolicyStream(merchantId)]);
  return last
    ? { rounding_policy: last.data.rounding_policy, set_at: last.data.set_at }
    : { rounding_policy: 'rule', set_at: null };
}
