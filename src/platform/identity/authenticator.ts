import type { Principal } from './principal';

/**
 * Who an `x-api-key` header belongs to: undefined for a missing, unknown or revoked key. The auth
 * feature provides it (its keys are a read model); the guard, here, only asks.
 */
export abstract class Authenticator {
  abstract authenticate(header: string | string[] | undefined): Promise<Principal | undefined>;
}
