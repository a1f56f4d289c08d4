import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../platform/event-store/sql';
import type { Environment, Role } from '../platform/identity/principal';
import { entriesNotApplied } from '../platform/projections/log-position';
import { apiKeysProjector } from './read-model/api-keys.projector';

/** A key as the admin API shows it: never the key, never its hash. */
export interface ApiKeyRecord {
  id: string;
  role: Role;
  environment: Environment;
  merchantId: string | null;
  partnerId: string | null;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
}

interface ApiKeyRow {
  id: string;
  role: Role;
  environment: Environment;
  merchant_id: string | null;
  partner_id: string | null;
  name: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = 'id, role, environment, merchant_id, partner_id, name, created_at, revoked_at';

/**
 * Every key the log holds, as `keys`: the rows of `rm_api_keys` (read-model/api-keys.projector.ts),
 * which follows the log after the append, and the issuances and revocations it has not applied yet
 * (entriesNotApplied), read in the same statement. A revocation there revokes a key of either, so a
 * key is known the moment its issuance commits, and revoked the moment its revocation does. The
 * first revocation of a key stands, as the projector keeps it. The log's key hash is cast to the
 * column's type, so that a look-up by hash stays on the table's unique index.
 */
const KEYS = `with pending as ${entriesNotApplied(apiKeysProjector)},
revoked as (
  select distinct on (p.data->>'keyId') p.data->>'keyId' as id, (p.data->>'revokedAt')::timestamptz as revoked_at
  from pending p where p.event_type = 'ApiKeyRevoked' order by p.data->>'keyId', p.position
),
keys as (
  select k.id, k.key_hash, k.role, k.environment, k.merchant_id, k.partner_id, k.name, k.created_at,
    coalesce(k.revoked_at, r.revoked_at) as revoked_at
  from rm_api_keys k left join revoked r on r.id = k.id
  union all
  select p.data->>'keyId', (p.data->>'keyHash')::char(64), p.data->>'role', p.data->>'environment', p.data->>'merchantId',
    p.data->>'partnerId', p.data->>'name', (p.data->>'issuedAt')::timestamptz, r.revoked_at
  from pending p left join revoked r on r.id = p.data->>'keyId'
  where p.event_type = 'ApiKeyIssued'
)`;

/**
 * Reads the keys as the log holds them (KEYS). The authenticator caches what it finds here
 * (api-key-revocation-feed.ts says how that cache stays true).
 */
@Injectable()
export class ApiKeyDirectory {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.db.query<ApiKeyRow>(`${KEYS} select ${COLUMNS} from keys where key_hash = $1`, [keyHash]);
    return row && toRecord(row);
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.db.query<ApiKeyRow>(`${KEYS} select ${COLUMNS} from keys where id = $1`, [id]);
    return row && toRecord(row);
  }

  /** Oldest first. `merchantIds` 'all': every key, including those of no merchant. */
  async list(merchantIds: 'all' | string[], page: { limit: number; offset: number }): Promise<ApiKeyRecord[]> {
    const rows =
      merchantIds === 'all'
        ? await this.db.query<ApiKeyRow>(
            `${KEYS} select ${COLUMNS} from keys order by created_at, id limit $1 offset $2`,
            [page.limit, page.offset],
          )
        : await this.db.query<ApiKeyRow>(
            `${KEYS} select ${COLUMNS} from keys where merchant_id = any($1) order by created_at, id limit $2 offset $3`,
            [merchantIds, page.limit, page.offset],
          );
    return rows.map(toRecord);
  }

  /** Whether an admin key was ever issued, revoked or not. */
  async anyAdminKeyIssued(): Promise<boolean> {
    return (await this.db.query(`${KEYS} select 1 from keys where role = 'admin' limit 1`)).length > 0;
  }

  async partnerExists(partnerId: string): Promise<boolean> {
    return (
      (
        await this.db.query(`${KEYS} select 1 from keys where role = 'partner' and partner_id = $1 limit 1`, [
          partnerId,
        ])
      ).length > 0
    );
  }
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    role: row.role,
    environment: row.environment,
    merchantId: row.merchant_id,
    partnerId: row.partner_id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}
