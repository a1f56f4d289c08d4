import type { ApiKeyRecord } from './api-key-directory';

/** The admin API's view of a key: no raw key and no hash, ever. */
export interface ApiKeyResponse {
  id: string;
  role: ApiKeyRecord['role'];
  merchant_id: string | null;
  partner_id: string | null;
  environment: ApiKeyRecord['environment'];
  name: string | null;
  created_at: string;
  revoked_at: string | null;
}

export function toApiKeyResponse(key: ApiKeyRecord): ApiKeyResponse {
  return {
    id: key.id,
    role: key.role,
    merchant_id: key.merchantId,
    partner_id: key.partnerId,
    environment: key.environment,
    name: key.name,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}
