import type { Sql } from '../platform/event-store/sql';
import type { EntryRef } from '@crcs/tlog';
import { ROUNDING_RULE_EVENT_TYPES } from './jurisdiction.events';

/** A rule as a log entry holds it, and the entry. */
export interface RuleEntry extends EntryRef {
  /** As recorded: a rule of an older version of the model lacks the newer fields (see upgradeRecordedRule). */
  rule: Record<string, unknown>;
}

/**
 * The rounding rule versions the log recorded after `afterPosition` (imported from the seed files or
 * changed by an administrator), oldest first: read from the log itself, never from a read model, so
 * a row written into rm_jurisdiction_rules by SQL is never applied.
 */
export async function readRoundingRuleEntries(sql: Sql, afterPosition: number): Promise<RuleEntry[]> {
  const rows = await sql.query<{ position: string; hash: string; rule: Record<string, unknown> }>(
    `select position, hash, data->'rule' as rule from events
     where event_type = any($1) and position > $2 order by position`,
    [ROUNDING_RULE_EVENT_TYPES, afterPosition],
  );
  return rows.map((row) => ({ rule: row.rule, position: Number(row.position), hash: row.hash }));
}
