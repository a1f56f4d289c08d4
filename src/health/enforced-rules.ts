/** Injection token for the `EnforcedRule[]` that `/health` reports; the root module provides it. */
export const ENFORCED_RULES = Symbol('ENFORCED_RULES');
