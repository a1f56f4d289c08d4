/** A rule the service enforces in code, with the law or regulation it comes from. */
export interface EnforcedRule {
  citation: string;
  rule: string;
}

/** Injection token for the `EnforcedRule[]` that `/health` reports; the root module provides it. */
export const ENFORCED_RULES = Symbol('ENFORCED_RULES');
