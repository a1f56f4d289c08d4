import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, type Sql } from '../../platform/event-store/sql';
import { ruleVersionKey } from '../../rules/jurisdiction-rule';
import { ROUNDING_RULE_EVENT_TYPES, type JurisdictionRuleChanged } from '../jurisdiction.events';
import type { Projector } from '../../platform/projections/projector';

export interface RecordedRule {
  /** As recorded: a rule of an older version of the model lacks the newer fields (see upgradeRecordedRule). */
  rule: Record<string, unknown>;
  /** Log position of the event that recorded this version last. */
  position: number;
}

/**
 * The current version of every rule the log holds (imported from the seed files or recorded by an
 * administrator), one row per rule version, with the position of its entry, built after the append.
 * For reading only: the service prices from the entries themselves (JurisdictionRuleSync), and the
 * rule read-model check raises the alarm over a row that no entry backs.
 */
export const jurisdictionRulesProjector: Projector = {
  name: 'jurisdiction-rules',
  version: 2,
  handles: [...ROUNDING_RULE_EVENT_TYPES],

  async reset(tx: Sql): Promise<void> {
    await tx.query('drop table if exists rm_jurisdiction_rules');
    await tx.query(
      `create table rm_jurisdiction_rules (
         version_key text primary key,
         rule jsonb not null,
         position bigint not null
       )`,
    );
    await tx.query('create index rm_jurisdiction_rules_position on rm_jurisdiction_rules (position)');
  },

  async apply(events: readonly StoredEvent[], tx: Sql): Promise<void> {
    // One row per rule version, its last change in the batch: an upsert may not touch a row twice.
    const latest = new Map<string, Record<string, unknown>>();
    for (const event of events) {
      const { rule } = event.data as JurisdictionRuleChanged['data'];
      latest.set(ruleVersionKey(rule), { version_key: ruleVersionKey(rule), rule, position: event.position });
    }
    const params: unknown[] = [];
    // A replayed older event never overwrites the row of a later one.
    await tx.query(
      `${insertRows('rm_jurisdiction_rules', [...latest.values()], params)}
       on conflict (version_key) do update set rule = excluded.rule, position = excluded.position
       where rm_jurisdiction_rules.position < excluded.position`,
      params,
    );
  },
};

/** Rule versions whose last change is after `afterPosition`, oldest change first. */
export async function readRecordedRules(sql: Sql, afterPosition: number): Promise<RecordedRule[]> {
  const rows = await sql.query<{ rule: Record<string, unknown>; position: string }>(
    'select rule, position from rm_jurisdiction_rules where position > $1 order by position',
    [afterPosition],
  );
  return rows.map((row) => ({ rule: row.rule, position: Number(row.position) }));
}
