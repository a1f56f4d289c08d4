import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '../auth/principal';
import { DATABASE, type Database } from '../event-store/sql';

export interface MerchantRecord {
  merchantId: string;
  name: string;
  environment: Environment;
  partnerId: string | null;
  onboardedAt: string;
}

interface MerchantRow {
  merchant_id: string;
  name: string;
  environment: Environment;
  partner_id: string | null;
  onboarded_at: Date;
}

/** Reads `rm_merchants` (projections/merchants). */
@Injectable()
export class MerchantDirectory {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async find(merchantId: string): Promise<MerchantRecord | undefined> {
    const [row] = await this.db.query<MerchantRow>('select * from rm_merchants where merchant_id = $1', [merchantId]);
    return row && toRecord(row);
  }

  /** The merchants a partner onboarded in one environment. */
  async idsOfPartner(partnerId: string, environment: Environment): Promise<string[]> {
    const rows = await this.db.query<{ merchant_id: string }>(
      'select merchant_id from rm_merchants where partner_id = $1 and environment = $2 order by merchant_id',
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
