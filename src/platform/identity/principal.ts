export const ROLES = ['merchant', 'auditor', 'admin', 'partner'] as const;
export type Role = (typeof ROLES)[number];

export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The caller behind a request, as the auth guard established it from the `x-api-key` header. */
export interface Principal {
  keyId: string;
  role: Role;
  environment: Environment;
  /** Merchant keys only: the one merchant the key acts for. */
  merchantId?: string;
  /** Partner keys only: the partner that owns the merchants it onboarded (shared by its replacement keys). */
  partnerId?: string;
}
