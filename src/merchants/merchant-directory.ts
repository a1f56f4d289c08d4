import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '../platform/identity/principal';
import { DATABASE, type Database, type Sql } from '../platform/event-store/sql';
import { entriesNotApplied } from '../platform/projections/log-position';
import { merchantsProjector } from './read-model/merchants.projector';

export interface MerchantRecord {
  merchantId: string;
  name: string;
  environment: Environment;
  partnerId: string | null;
  onboardedAt: string;
}

/** A partner's merchants: those it onboarded, in the environment of its key. */
export interface PartnerMerchants {
  partnerId: string | null;
  environment: Environment;
}

interface MerchantRow {
  merchant_id: string;
  name: string;
  environment: Environment;
  partner_id: string | null;
  onboarded_at: Date;
}

/**
 * Every merchant the log holds, as `merchants`: the rows of `rm_merchants` (read-model/merchants.projector.ts),
 * which follows the log after the append, and the onboardings it has not applied yet (entriesNotApplied),
 * read in the same statement.
 */
const MERCHANTS = `with merchants as (
  select merchant_id, name, environment, partner_id, onboarded_at from rm_merchants
  union all
  select e.data->>'merchantId', e.data->>'name', e.data->>'environment', e.data->>'partnerId', (e.data->>'onboardedAt')::timestamptz
  from ${entriesNotApplied(merchantsProjector)} e
)`;

/**
 * Another merchant whose id is `merchantId` but for case, if any. Ids are ASCII (MERCHANT_ID_PATTERN), so `lower` folds them exactly.
 * Inside the append transaction it sees the entries of the append itself too.
 */
export async function merchantDifferingInCase(sql: Sql, merchantId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ merchant_id: string }>(
    `${MERCHANTS} select merchant_id from merchants where lower(merchant_id) = lower($1) and merchant_id <> $1 order by merchant_id limit 1`,
    [merchantId],
  );
  return row?.merchant_id;
}

/** Reads the merchants as the log holds them (MERCHANTS): a merchant is known from the moment its onboarding is committed. */
@Injectable()
export class MerchantDirectory {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async find(merchantId: string): Promise<MerchantRecord | undefined> {
    const [row] = await this.db.query<MerchantRow>(`${MERCHANTS} select * from merchants where merchant_id = $1`, [
      merchantId,
    ]);
    return row && toRecord(row);
  }

  /** Every merchant at once, by id: what the fraud overview ranks. */
  async all(): Promise<MerchantRecord[]> {
    const rows = await this.db.query<MerchantRow>(`${MERCHANTS} select * from merchants order by merchant_id`);
    return rows.map(toRecord);
  }

  /** Oldest first. 'all': every merchant; a partner's: those it onboarded in one environment. */
  async list(owner: 'all' | PartnerMerchants, page: { limit: number; offset: number }): Promise<MerchantRecord[]> {
    const order = 'order by onboarded_at, merchant_id';
    const rows =
      owner === 'all'
        ? await this.db.query<MerchantRow>(`${MERCHANTS} select * from merchants ${order} limit $1 offset $2`, [
            page.limit,
            page.offset,
          ])
        : await this.db.query<MerchantRow>(
            `${MERCHANTS} select * from merchants where partner_id = $1 and environment = $2 ${order} limit $3 offset $4`,
            [owner.partnerId, owner.environment, page.limit, page.offset],
          );
    return rows.map(toRecord);
  }

  /** The merchants a partner onboarded in one environment. */
  async idsOfPartner(partnerId: string, environment: Environment): Promise<string[]> {
    const rows = await this.db.query<{ merchant_id: string }>(
      `${MERCHANTS} select merchant_id from merchants where partner_id = $1 and environment = $2 order by merchant_id`,
      [partnerId, environment],
    );
    return rows.map((row) => row.merchant_id);
  }
}

function toRecord(row: MerchantRow): MerchantRecord {
  return {
    merchantId: row.merchant_id,
    name: row.name,
    environment: row.environment,
    partnerId: row.partner_id,
    onboardedAt: row.onboarded_at.toISOString(),
  };
}
