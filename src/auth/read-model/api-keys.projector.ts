import type { ApiKeyEvent } from '../api-key.events';
import type { StoredEvent } from '../../platform/event-store/event-store.port';
import type { Sql } from '../../platform/event-store/sql';
import type { Projector } from '../../platform/projections/projector';

/**
 * `rm_api_keys`: what the auth guard looks a key up in, by its SHA-256. Inline, so that a key
 * works, and a revocation bites, on the very next request to any service process.
 */
export const apiKeysProjector: Projector = {
  name: 'api-keys',
  version: 1,
  mode: 'inline',
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

  async apply(stored: StoredEvent, tx: Sql) {
    const event = stored as unknown as ApiKeyEvent;
    switch (event.type) {
      case 'ApiKeyIssued': {
        const d = event.data;
        await tx.query(
          `insert into rm_api_keys (id, key_hash, role, environment, merchant_id, partner_id, name, created_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8)
           on conflict (id) do nothing`,
          [d.keyId, d.keyHash, d.role, d.environment, d.merchantId, d.partnerId, d.name, d.issuedAt],
        );
        return;
      }
      case 'ApiKeyRevoked':
        await tx.query('update rm_api_keys set revoked_at = coalesce(revoked_at, $2) where id = $1', [
          event.data.keyId,
          event.data.revokedAt,
        ]);
        return;
    }
  },
};
