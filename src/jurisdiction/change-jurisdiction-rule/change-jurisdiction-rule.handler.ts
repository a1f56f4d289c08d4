import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { eventMetadata } from '../../auth/command-context';
import { EventStore } from '../../event-store/event-store.port';
import { JurisdictionResolver } from '../jurisdiction-resolver';
import { ruleVersionKey } from '../jurisdiction-rule';
import { JurisdictionRuleSync } from '../jurisdiction-rule-sync';
import { jurisdictionRuleStream, type JurisdictionRuleChanged } from '../jurisdiction.events';
import { ChangeJurisdictionRuleCommand, type RuleChangeRecorded } from './change-jurisdiction-rule.command';

/**
 * Appends the change, then waits until the resolver has it, so the caller's next lookup or sale
 * already uses it. Last writer wins: a rule version has no state a concurrent change could break.
 */
@CommandHandler(ChangeJurisdictionRuleCommand)
export class ChangeJurisdictionRuleHandler implements ICommandHandler<ChangeJurisdictionRuleCommand, RuleChangeRecorded> {
  constructor(
    private readonly store: EventStore,
    private readonly resolver: JurisdictionResolver,
    private readonly rules: JurisdictionRuleSync,
  ) {}

  async execute({ rule: raw, context }: ChangeJurisdictionRuleCommand): Promise<RuleChangeRecorded> {
    const rule = this.resolver.checkRule(raw);
    const versionKey = ruleVersionKey(rule);
    const created = !this.resolver.listRules().some((known) => ruleVersionKey(known) === versionKey);
    const event: JurisdictionRuleChanged = { type: 'JurisdictionRuleChanged', data: { rule }, metadata: eventMetadata(context) };
    const [stored] = await this.store.append(jurisdictionRuleStream(rule.lookup_key), [event], { expectedRevision: 'any' });
    await this.rules.sync();
    return { created, rule, auditHash: stored.hash, position: stored.position };
  }
}
