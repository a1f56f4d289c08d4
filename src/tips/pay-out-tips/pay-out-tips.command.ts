import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { TipPayoutView, TipSuccess } from '../tip-view';
import type { PayOutTipsRequest } from './pay-out-tips.request.dto';

export class PayOutTipsResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPayoutView })
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
