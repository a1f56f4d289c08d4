import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { ValidateTipCreditRequest } from './validate-tip-credit.request.dto';
import { ValidateTipCreditResponse } from './validate-tip-credit.response.dto';

export class ValidateTipCreditCommand extends Command<ValidateTipCreditResponse> {
  constructor(
    readonly request: ValidateTipCreditRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
