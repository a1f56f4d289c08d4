import type { StoredEvent } from '../../platform/event-store/event-store.port';
import type { Sql } from '../../platform/event-store/sql';
import type { MerchantEvent } from '../merchant.events';
import type { Projector } from '../../platform/projections/projector';

/** `rm_merchants`: which merchants exist, their environment and the partner that may act for them. */
export const merchantsProjector: Projector = {
  name: 'merchants',
  version: 1,
  mode: 'inline',
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

  async apply(stored: StoredEvent, tx: Sql) {
    const event = stored as unknown as MerchantEvent;
    const d = event.data;
    await tx.query(
      `insert into rm_merchants (merchant_id, name, environment, partner_id, onboarded_at)
       values ($1, $2, $3, $4, $5)
       on conflict (merchant_id) do nothing`,
      [d.merchantId, d.name, d.environment, d.partnerId, d.onboardedAt],
    );
  },
};
