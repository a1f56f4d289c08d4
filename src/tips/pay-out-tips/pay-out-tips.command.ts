import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { TipPayoutView } from '../tip-view';
import type { PayOutTipsRequest } from './pay-out-tips.request.dto';

export interface PayOutTipsResponse {
  success: true;
  payout: TipPayoutView;
}

export class PayOutTipsCommand extends Command<PayOutTipsResponse> {
  constructor(
    readonly request: PayOutTipsRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
