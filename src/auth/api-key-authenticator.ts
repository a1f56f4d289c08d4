import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import type { Authenticator } from '../platform/identity/authenticator';
import { sha256 } from '@crcs/tlog';
import { ApiKeyDirectory } from './api-key-directory';
import { ApiKeyRevocationFeed } from './api-key-revocation-feed';
import { ISSUED_KEY_FORMAT, hashApiKey } from './api-key-secret';
import type { Principal } from '../platform/identity/principal';

/** The admin that ADMIN_API_KEY stands for. It is configuration, not a record: it cannot be listed or revoked, only unset. */
export const ENV_ADMIN: Principal = Object.freeze({
  keyId: 'env:ADMIN_API_KEY',
  role: 'admin',
  environment: 'production',
});

/** Longer than any key we issue or accept as ADMIN_API_KEY in practice; refused without hashing. */
const MAX_KEY_LENGTH = 256;

/** Turns the `x-api-key` header into a principal, or undefined for a missing, unknown or revoked key. */
@Injectable()
export class ApiKeyAuthenticator implements Authenticator {
  private readonly adminKeyDigest?: Buffer;

  constructor(
    config: AppConfig,
    private readonly keys: ApiKeyDirectory,
    private readonly revocations: ApiKeyRevocationFeed,
  ) {
    if (config.adminApiKey) this.adminKeyDigest = sha256(config.adminApiKey);
  }

  async authenticate(header: string | string[] | undefined): Promise<Principal | undefined> {
    if (typeof header !== 'string' || header.length === 0 || header.length > MAX_KEY_LENGTH) return undefined;
    // Digests have one length, so the comparison takes the same time whatever the caller sent.
    if (this.adminKeyDigest && timingSafeEqual(sha256(header), this.adminKeyDigest)) return ENV_ADMIN;
    if (!ISSUED_KEY_FORMAT.test(header)) return undefined;
    const keyHash = hashApiKey(header);
    const cache = this.revocations.cache;
    const cached = cache.get(keyHash);
    if (cached) return cached;
    const ticket = cache.ticket();
    const key = await this.keys.findByHash(keyHash);
    if (!key || key.revokedAt !== null) return undefined;
    // Frozen: the same object answers every request the cache serves.
    const principal: Principal = Object.freeze({
      keyId: key.id,
      role: key.role,
      environment: key.environment,
      ...(key.merchantId !== null && { merchantId: key.merchantId }),
      ...(key.partnerId !== null && { partnerId: key.partnerId }),
    });
    cache.put(ticket, keyHash, key.id, principal);
    return principal;
  }
}
