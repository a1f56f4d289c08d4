import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, type Sql } from '../../platform/event-store/sql';
import type { Projector } from '../../platform/projections/projector';
import type { RoundingPolicy } from '../../rules/rounding-policy';
import type { RoundingPolicyEvent } from '../rounding-policy.events';

/**
 * `rm_rounding_policies`: each merchant's rounding policy, for the PUT's answer. A sale reads its
 * merchant's policy from the log (sale-inputs.ts), and the rule read-model check raises the alarm over
 * a row that no entry backs.
 */
export const roundingPoliciesProjector: Projector = {
  name: 'rounding-policies',
  version: 1,
  mode: 'inline',
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

/** The merchant's policy as of `set_at` (null: never set, so the rule's). */
export async function roundingPolicyOf(
  sql: Sql,
  merchantId: string,
): Promise<{ rounding_policy: RoundingPolicy; set_at: string | null }> {
  const [row] = await sql.query<{ rounding_policy: RoundingPolicy; set_at: Date }>(
    'select rounding_policy, set_at from rm_rounding_policies where merchant_id = $1',
    [merchantId],
  );
  return row
    ? { rounding_policy: row.rounding_policy, set_at: row.set_at.toISOString() }
    : { rounding_policy: 'rule', set_at: null };
}
