import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { TipMethod } from '../tip.events';
import type { RecordTipRequest } from './record-tip.request.dto';
import { RecordTipResponse } from './record-tip.response.dto';

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
