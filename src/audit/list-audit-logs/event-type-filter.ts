import { CHECKPOINT_EVENT_TYPE } from '@crcs/tlog';
import { CHAIN_ALARM_RAISED } from '../chain-alarm.events';

/**
 * `event_type` takes the spec's short names (`transaction`, `override`, `void`, `tip_payout`…),
 * each standing for the stored event types below, or any stored type itself (`TipAdjusted`).
 */
const EVENT_TYPE_NAMES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    transaction: ['TransactionRecorded'],
    override: ['OverrideApplied'],
    void: ['TransactionVoided'],
    refund: ['RefundIssued'],
    tip: ['TipRecorded'],
    tip_adjustment: ['TipAdjusted'],
    // A pool's share paid to an employee is a payout too.
    tip_payout: ['TipPaidOut', 'TipPoolSharePaid'],
    tip_pool: ['TipPooled', 'TipPoolDistributed'],
    tip_credit_check: ['TipCreditChecked'],
    api_key: ['ApiKeyIssued', 'ApiKeyRevoked'],
    merchant: ['MerchantOnboarded'],
    jurisdiction_rule: ['JurisdictionRuleImported', 'JurisdictionRuleChanged'],
    tip_wage_rule: ['TipWageRuleImported'],
    rounding_policy: ['RoundingPolicySet'],
    checkpoint: [CHECKPOINT_EVENT_TYPE],
    chain_alarm: [CHAIN_ALARM_RAISED],
  }),
);

export const EVENT_TYPE_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export const eventTypesFor = (name: string): readonly string[] => EVENT_TYPE_NAMES.get(name) ?? [name];
