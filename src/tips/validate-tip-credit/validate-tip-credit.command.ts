import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { TipCreditCheckView } from '../tip-view';
import type { ValidateTipCreditRequest } from './validate-tip-credit.request.dto';

export interface ValidateTipCreditResponse {
  success: true;
  compliance: TipCreditCheckView;
}

export class ValidateTipCreditCommand extends Command<ValidateTipCreditResponse> {
  constructor(
    readonly request: ValidateTipCreditRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
