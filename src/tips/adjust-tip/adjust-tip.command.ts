import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { TipAdjustmentView, TipView } from '../tip-view';
import type { AdjustTipRequest } from './adjust-tip.request.dto';

/** The adjustment (the new record) and the tip as it now stands, with its whole history. */
export interface AdjustTipResponse {
  success: true;
  adjustment: TipAdjustmentView;
  tip: TipView;
}

export class AdjustTipCommand extends Command<AdjustTipResponse> {
  constructor(
    readonly request: AdjustTipRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
