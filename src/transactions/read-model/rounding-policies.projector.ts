import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, type Sql } from '../../platform/event-store/sql';
import type { Projector } from '../../platform/projections/projector';
import type { RoundingPolicyEvent } from '../rounding-policy.events';

/**
 * `rm_rounding_policies`: each merchant's rounding policy, built after the append. Nothing decides or
 * answers from it: a sale reads its merchant's policy from the log (sale-inputs.ts), and so does the
 * PUT's answer; the rule read-model check raises the alarm over a row that no entry backs.
 */
export const roundingPoliciesProjector: Projector = {
  name: 'rounding-policies',
  version: 1,
  handles: ['RoundingPolicySet'],

  async reset(tx: Sql) {
    await tx.query('drop table if exists rm_rounding_policies');
    await tx.query(`create table rm_rounding_policies (
      merchant_id text primary key,
      rounding_policy text not null,
      set_at timestamptz not null,
      position bigint not null
    )`);
  },

  async apply(events: readonly StoredEvent[], tx: Sql) {
    // The latest event of each merchant in the batch; the position guard keeps a replay from going back.
    const latest = new Map<string, Record<string, unknown>>();
    for (const stored of events) {
      const { data } = stored as unknown as RoundingPolicyEvent;
      latest.set(data.merchant_id, {
        merchant_id: data.merchant_id,
        rounding_policy: data.rounding_policy,
        set_at: data.set_at,
        position: stored.position,
      });
    }
    const params: unknown[] = [];
    await tx.query(
      `${insertRows('rm_rounding_policies', [...latest.values()], params)}
       on conflict (merchant_id) do update set rounding_policy = excluded.rounding_policy, set_at = excluded.set_at, position = excluded.position
       where rm_rounding_policies.position < excluded.position`,
      params,
    );
  },
};
