import type { ApiKeyEvent } from '../api-key.events';
import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, type Sql } from '../../platform/event-store/sql';
import type { Projector } from '../../platform/projections/projector';

/**
 * `rm_api_keys`: what the auth guard looks a key up in, by its SHA-256. Built after the append: the
 * guard reads it with the issuances and revocations after its checkpoint (api-key-directory.ts),
 * so that a key works, and a revocation bites, on the very next request to any service process.
 */
export const apiKeysProjector: Projector = {
  name: 'api-keys',
  version: 1,
  handles: ['ApiKeyIssued', 'ApiKeyRevoked'],

  async reset(tx: Sql) {
    await tx.query('drop table if exists rm_api_keys');
    await tx.query(`create table rm_api_keys (
      id text primary key,
      key_hash char(64) not null unique,
      role text not null,
      environment text not null,
      merchant_id text,
      partner_id text,
      name text,
      created_at timestamptz not null,
      revoked_at timestamptz
    )`);
    await tx.query('create index rm_api_keys_merchant_idx on rm_api_keys (merchant_id)');
    await tx.query('create index rm_api_keys_role_idx on rm_api_keys (role)');
  },

  async apply(events: readonly StoredEvent[], tx: Sql) {
    const issued: Record<string, unknown>[] = [];
    // The first revocation of a key stands, as if each had been applied in turn.
    const revoked = new Map<string, string>();
    for (const event of events as unknown as ApiKeyEvent[]) {
      if (event.type === 'ApiKeyIssued') {
        const d = event.data;
        issued.push({
          id: d.keyId,
          key_hash: d.keyHash,
          role: d.role,
          environment: d.environment,
          merchant_id: d.merchantId,
          partner_id: d.partnerId,
          name: d.name,
          created_at: d.issuedAt,
        });
      } else if (!revoked.has(event.data.keyId)) {
        revoked.set(event.data.keyId, event.data.revokedAt);
      }
    }
    // Issued first: a key issued and revoked in the same batch ends revoked.
    if (issued.length > 0) {
      const params: unknown[] = [];
      await tx.query(`${insertRows('rm_api_keys', issued, params)} on conflict (id) do nothing`, params);
    }
    if (revoked.size > 0) {
      await tx.query(
        `update rm_api_keys k set revoked_at = coalesce(k.revoked_at, r.revoked_at)
         from unnest($1::text[], $2::timestamptz[]) as r(id, revoked_at) where k.id = r.id`,
        [[...revoked.keys()], [...revoked.values()]],
      );
    }
  },
};
