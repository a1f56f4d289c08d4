import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandStep } from '../../platform/command-step';
import { JurisdictionRuleStore } from '../rule-store';
import { ruleVersionKey } from '../../rules/jurisdiction-rule';
import { JurisdictionRuleSync } from '../jurisdiction-rule-sync';
import { jurisdictionRuleDecider, jurisdictionRuleStream } from '../jurisdiction.events';
import { ChangeJurisdictionRuleCommand, type RuleChangeRecorded } from './change-jurisdiction-rule.command';

/**
 * Records the change, then waits until the rule store has it, so the caller's next lookup or sale
 * already uses it.
 */
@CommandHandler(ChangeJurisdictionRuleCommand)
export class ChangeJurisdictionRuleHandler implements ICommandHandler<
  ChangeJurisdictionRuleCommand,
  RuleChangeRecorded
> {
  constructor(
    private readonly step: CommandStep,
    private readonly store: JurisdictionRuleStore,
    private readonly rules: JurisdictionRuleSync,
  ) {}

  async execute({ rule: raw, context }: ChangeJurisdictionRuleCommand): Promise<RuleChangeRecorded> {
    const rule = this.store.checkRule(raw);
    const versionKey = ruleVersionKey(rule);
    const created = !this.store.allRules().some((known) => ruleVersionKey(known) === versionKey);
    const stream = jurisdictionRuleStream(rule.lookup_key);
    const stored = await this.step.run(
      { stream, decider: jurisdictionRuleDecider, command: { rule }, metadata: eventMetadata(context) },
      (_tx, [event]) => event,
    );
    await this.rules.sync();
    return { created, rule, auditHash: stored.hash, position: stored.position };
  }
}
