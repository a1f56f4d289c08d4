import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { TipMethod } from '../tip.events';
import type { TipView } from '../tip-view';
import type { RecordTipRequest } from './record-tip.request.dto';

export interface RecordTipResponse {
  success: true;
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
