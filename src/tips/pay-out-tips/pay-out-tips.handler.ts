import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandStep } from '../../platform/command-step';
import { eventMetadata } from '../../platform/identity/command-context';
import { Clock } from '../../platform/clock';
import { dollarsToCents } from '../../rules/money';
import { tipPayoutDecider } from '../tip.decider';
import { tipPayoutStream, type TipPaidOutData } from '../tip.events';
import { TIP_ID_PREFIX } from '../tip-ids';
import { TipMerchants } from '../tip-merchants';
import { payoutView } from '../tip-views';
import { PayOutTipsCommand } from './pay-out-tips.command';
import type { PayOutTipsResponse } from './pay-out-tips.response.dto';

/** A payout is not tied to particular tips: GET /analytics/tip-wage-theft weighs each employee's payouts against the tips due to them. */
@CommandHandler(PayOutTipsCommand)
export class PayOutTipsHandler implements ICommandHandler<PayOutTipsCommand, PayOutTipsResponse> {
  constructor(
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly step: CommandStep,
  ) {}

  async execute({ request, context, idempotency }: PayOutTipsCommand): Promise<PayOutTipsResponse> {
    const merchantId = await this.merchants.actingFor(context.principal, request.merchant_id);
    const now = this.clock.now();
    return this.step.runNew(
      TIP_ID_PREFIX.payout,
      now,
      (payoutId) => {
        const command = {
          kind: 'PayOutTips' as const,
          payout_id: payoutId,
          merchant_id: merchantId,
          employee_id: request.employee_id,
          employee_name: request.employee_name,
          amount_cents: dollarsToCents(request.payout_amount, 'payout_amount'),
          payout_method: request.payout_method,
          now: now.toISOString(),
        };
        return {
          stream: tipPayoutStream(payoutId),
          decider: tipPayoutDecider,
          command,
          metadata: eventMetadata(context, merchantId),
          idempotency,
        };
      },
      (_tx, [paid]) => ({ success: true, payout: payoutView(paid.data as TipPaidOutData, paid) }),
    );
  }
}
