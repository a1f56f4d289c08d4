import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { RoundingPolicy } from '../../rules/rounding-policy';
import type { RoundingPolicyAnswer } from './set-rounding-policy.response.dto';

export class SetRoundingPolicyCommand extends Command<RoundingPolicyAnswer> {
  constructor(
    readonly merchantId: string,
    readonly roundingPolicy: RoundingPolicy,
    readonly context: CommandContext,
  ) {
    super();
  }
}
