import type { Decider } from '../platform/decider';
import type { RoundingPolicy } from '../rules/rounding-policy';
import type { RoundingPolicyEvent } from './rounding-policy.events';

/** A merchant that never set one rounds as the rule says. */
export interface RoundingPolicyState {
  policy: RoundingPolicy;
}

export interface SetRoundingPolicy {
  kind: 'SetRoundingPolicy';
  merchant_id: string;
  rounding_policy: RoundingPolicy;
  now: string;
}

/** Setting the policy a merchant already has records nothing: the PUT is idempotent. */
export const roundingPolicyDecider: Decider<SetRoundingPolicy, RoundingPolicyState, RoundingPolicyEvent> = {
  initialState: () => ({ policy: 'rule' }),
  evolve: (_state, event) => ({ policy: event.data.rounding_policy }),
  decide(command, state) {
    if (command.rounding_policy === state.policy) return [];
    return [
      {
        type: 'RoundingPolicySet',
        data: { merchant_id: command.merchant_id, rounding_policy: command.rounding_policy, set_at: command.now },
      },
    ];
  },
};
