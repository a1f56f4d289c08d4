import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { TipAdjustmentView, TipView, TipSuccess } from '../tip-view';
import type { AdjustTipRequest } from './adjust-tip.request.dto';

/** The adjustment (the new record) and the tip as it now stands, with its whole history. */
export class AdjustTipResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipAdjustmentView, description: 'The adjustment: a record of its own, with its entry in the chain' })
  adjustment: TipAdjustmentView;

  @ApiProperty({ type: TipView, description: 'The tip as it now stands, with its whole history' })
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
