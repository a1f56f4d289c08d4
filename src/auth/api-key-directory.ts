import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../platform/event-store/sql';
import type { Environment, Role } from '../platform/identity/principal';

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
 * Reads `rm_api_keys` (read-model/api-keys.projector.ts), as it stands: the table is written in the
 * same transaction as the revocation event. The authenticator caches what it finds here
 * (api-key-revocation-feed.ts says how that cache stays true).
 */
@Injectable()
export class ApiKeyDirectory {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.db.query<ApiKeyRow>(`select ${COLUMNS} from rm_api_keys where key_hash = $1`, [keyHash]);
    return row && toRecord(row);
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.db.query<ApiKeyRow>(`select ${COLUMNS} from rm_api_keys where id = $1`, [id]);
    return row && toRecord(row);
  }

  /** Oldest first. `merchantIds` 'all': every key, including those of no merchant. */
  async list(merchantIds: 'all' | string[], page: { limit: number; offset: number }): Promise<ApiKeyRecord[]> {
    const rows =
      merchantIds === 'all'
        ? await this.db.query<ApiKeyRow>(
            `select ${COLUMNS} from rm_api_keys order by created_at, id limit $1 offset $2`,
            [page.limit, page.offset],
          )
        : await this.db.query<ApiKeyRow>(
            `select ${COLUMNS} from rm_api_keys where merchant_id = any($1) order by created_at, id limit $2 offset $3`,
            [merchantIds, page.limit, page.offset],
          );
    return rows.map(toRecord);
  }

  /** Whether an admin key was ever issued, revoked or not. */
  async anyAdminKeyIssued(): Promise<boolean> {
    return (await this.db.query(`select 1 from rm_api_keys where role = 'admin' limit 1`)).length > 0;
  }

  async partnerExists(partnerId: string): Promise<boolean> {
    return (
      (await this.db.query(`select 1 from rm_api_keys where role = 'partner' and partner_id = $1 limit 1`, [partnerId]))
        .length > 0
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
