import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { SetRoundingPolicyRequest } from './set-rounding-policy.request.dto';
import type { RoundingPolicyAnswer } from './set-rounding-policy.response.dto';

export class SetRoundingPolicyCommand extends Command<RoundingPolicyAnswer> {
  constructor(
    readonly merchantId: string,
    readonly request: SetRoundingPolicyRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}
