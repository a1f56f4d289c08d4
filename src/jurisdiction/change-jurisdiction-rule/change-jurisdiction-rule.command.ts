import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { JurisdictionRule } from '../../rules/jurisdiction-rule';

export interface RuleChangeRecorded {
  /** True when this added a rule version; false when it replaced one with the same place, type, scope and effective date. */
  created: boolean;
  rule: JurisdictionRule;
  /** Hash of the JurisdictionRuleChanged event in the audit chain. */
  auditHash: string;
  position: number;
}

/** Records a version of a jurisdiction rule; `rule` is untrusted input, checked by the handler. */
export class ChangeJurisdictionRuleCommand extends Command<RuleChangeRecorded> {
  constructor(
    readonly rule: unknown,
    readonly context: CommandContext,
  ) {
    super();
  }
}
