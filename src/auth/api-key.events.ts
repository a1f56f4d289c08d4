import type { Environment, Role } from '../platform/identity/principal';

/** The stream of one key: `apiKey-<keyId>`. */
export const apiKeyStream = (keyId: string) => `apiKey-${keyId}`;

/** Holds the SHA-256 of the key, never the key: the log is read by auditors and kept forever. */
export interface ApiKeyIssued {
  type: 'ApiKeyIssued';
  data: {
    keyId: string;
    keyHash: string;
    role: Role;
    environment: Environment;
    merchantId: string | null;
    partnerId: string | null;
    name: string | null;
    issuedAt: string;
  };
}

export interface ApiKeyRevoked {
  type: 'ApiKeyRevoked';
  data: { keyId: string; revokedAt: string };
}

export type ApiKeyEvent = ApiKeyIssued | ApiKeyRevoked;
