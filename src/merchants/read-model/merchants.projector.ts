import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, type Sql } from '../../platform/event-store/sql';
import type { MerchantEvent } from '../merchant.events';
import type { Projector } from '../../platform/projections/projector';

/**
 * `rm_merchants`: which merchants exist, their environment and the partner that may act for them.
 * Built after the append: what decides whether a merchant exists reads it with the onboardings after
 * its checkpoint (merchant-directory.ts), so that a merchant is known the moment it is onboarded.
 */
export const merchantsProjector: Projector = {
  name: 'merchants',
  version: 1,
  handles: ['MerchantOnboarded'],

  async reset(tx: Sql) {
    await tx.query('drop table if exists rm_merchants');
    await tx.query(`create table rm_merchants (
      merchant_id text primary key,
      name text not null,
      environment text not null,
      partner_id text,
      onboarded_at timestamptz not null
    )`);
    await tx.query('create index rm_merchants_partner_idx on rm_merchants (partner_id)');
  },

  async apply(events: readonly StoredEvent[], tx: Sql) {
    const params: unknown[] = [];
    const rows = events.map((stored) => {
      const d = (stored as unknown as MerchantEvent).data;
      return {
        merchant_id: d.merchantId,
        name: d.name,
        environment: d.environment,
        partner_id: d.partnerId,
        onboarded_at: d.onboardedAt,
      };
    });
    await tx.query(`${insertRows('rm_merchants', rows, params)} on conflict (merchant_id) do nothing`, params);
  },
};
