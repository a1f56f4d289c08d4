import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { TipCreditCheckView, TipSuccess } from '../tip-view';
import type { ValidateTipCreditRequest } from './validate-tip-credit.request.dto';

export class ValidateTipCreditResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipCreditCheckView })
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
