import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { newRecordId } from '../../common/ids';
import { dollarsToCents } from '../../common/money';
import { tipPayoutDecider } from '../tip.decider';
import { tipPayoutStream, type TipPaidOutData } from '../tip.events';
import { TIP_ID_PREFIX } from '../tip-ids';
import { TipLog } from '../tip-log';
import { TipMerchants } from '../tip-merchants';
import { payoutView } from '../tip-view';
import { PayOutTipsCommand, type PayOutTipsResponse } from './pay-out-tips.command';

/** A payout is not tied to particular tips: GET /analytics/tip-wage-theft weighs each employee's payouts against the tips due to them. */
@CommandHandler(PayOutTipsCommand)
export class PayOutTipsHandler implements ICommandHandler<PayOutTipsCommand, PayOutTipsResponse> {
  constructor(
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly log: TipLog,
  ) {}

  async execute({ request, context, idempotency }: PayOutTipsCommand): Promise<PayOutTipsResponse> {
    const merchantId = await this.merchants.actingFor(context.principal, request.merchant_id);
    const now = this.clock.now();
    const payoutId = newRecordId(TIP_ID_PREFIX.payout, now);
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
    const stream = tipPayoutStream(payoutId);
    return this.log.append({ stream, decider: tipPayoutDecider, command, context, merchantId, idempotency }, (_tx, [paid]) => ({
      success: true,
      payout: payoutView(paid.data as TipPaidOutData, paid),
    }));
  }
}
