import type { RoundingPolicy } from '../rules/rounding-policy';

/** The stream of one merchant's rounding policy: `roundingPolicy-<merchantId>`. */
export const roundingPolicyStream = (merchantId: string) => `roundingPolicy-${merchantId}`;

export interface RoundingPolicySet {
  type: 'RoundingPolicySet';
  data: { merchant_id: string; rounding_policy: RoundingPolicy; set_at: string };
}

export type RoundingPolicyEvent = RoundingPolicySet;
