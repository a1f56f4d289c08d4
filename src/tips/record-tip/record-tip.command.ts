import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { TipMethod } from '../tip.events';
import { TipView, TipSuccess } from '../tip-view';
import type { RecordTipRequest } from './record-tip.request.dto';

export class RecordTipResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipView, description: 'The tip as recorded, with its entry in the chain' })
  tip: TipView;
}

export class RecordTipCommand extends Command<RecordTipResponse> {
  constructor(
    readonly method: TipMethod,
    readonly request: RecordTipRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
