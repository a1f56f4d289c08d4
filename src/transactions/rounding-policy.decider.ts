import type { Decider } from '../platform/decider';
import type { RoundingPolicy } from '../rules/rounding-policy';
import type { RoundingPolicyEvent } from './rounding-policy.events';
import type { SetRoundingPolicyRequest } from './set-rounding-policy/set-rounding-policy.request.dto';

/** A merchant that never set one rounds as the rule says. */
export interface RoundingPolicyState {
  policy: RoundingPolicy;
}

export interface SetRoundingPolicy {
  kind: 'SetRoundingPolicy';
  merchant_id: string;
  /** As the client sent it. */
  request: SetRoundingPolicyRequest;
  now: string;
}

/** Setting the policy a merchant already has records nothing: the PUT is idempotent. */
export const roundingPolicyDecider: Decider<SetRoundingPolicy, RoundingPolicyState, RoundingPolicyEvent> = {
  initialState: () => ({ policy: 'rule' }),
  evolve: (_state, event) => ({ policy: event.data.rounding_policy }),
  decide({ merchant_id: merchantId, request, now }, state) {
    if (request.rounding_policy === state.policy) return [];
    return [
      {
        type: 'RoundingPolicySet',
        data: { merchant_id: merchantId, rounding_policy: request.rounding_policy, set_at: now },
      },
    ];
  },
};
