import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ChainAlarms } from '../../audit/chain-alarms';
import { DATABASE, type Database, type Sql } from '../../platform/event-store/sql';
import { RULE_ENTRY_TYPES } from '@crcs/tlog';

/** How often the rule and policy read models are checked against the log: as often as rule changes are read. */
export const RULE_CHECK_MS = 2000;

/** A row of a rule read model that no log entry backs: written, or edited, outside the service. */
export interface UnbackedRuleRow {
  read_model: 'rm_jurisdiction_rules' | 'rm_rounding_policies';
  /** The row's key: the rule version key, or the merchant id. */
  key: string;
  /** The position the row names. */
  position: number;
}

/**
 * The rows of rm_jurisdiction_rules and rm_rounding_policies whose named entry does not hold what
 * the row says. Such a row is never applied (sales price from the entries), but it is a lie to
 * whoever reads the table, and the sign of someone writing to the database.
 */
export async function unbackedRuleRows(sql: Sql): Promise<UnbackedRuleRow[]> {
  const rows = await sql.query<{ read_model: UnbackedRuleRow['read_model']; key: string; position: string }>(
    `select 'rm_jurisdiction_rules' as read_model, r.version_key as key, r.position from rm_jurisdiction_rules r
     where not exists (select 1 from events e
       where e.position = r.position and e.event_type = any($1) and (e.data->'rule')::jsonb = r.rule)
     union all
     select 'rm_rounding_policies', p.merchant_id, p.position from rm_rounding_policies p
     where not exists (select 1 from events e
       where e.position = p.position and e.event_type = 'RoundingPolicySet'
         and e.data->>'merchant_id' = p.merchant_id and e.data->>'rounding_policy' = p.rounding_policy)
     order by position`,
    [[...RULE_ENTRY_TYPES]],
  );
  return rows.map((row) => ({ ...row, position: Number(row.position) }));
}

/**
 * Checks the rule and policy read models against the log every RULE_CHECK_MS and raises the chain
 * alarm (`read-model-differs`) once for each row no entry backs.
 */
@Injectable()
export class RuleReadModelCheck implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RuleReadModels');
  private readonly reported = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly alarms: ChainAlarms,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running = this.check().catch((error: unknown) =>
        this.logger.error({ err: error }, 'checking the rule read models failed; trying again'),
      );
    }, RULE_CHECK_MS);
    this.timer.unref();
  }

  /** Before the database closes. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async check(): Promise<void> {
    for (const row of await unbackedRuleRows(this.db)) {
      const id = JSON.stringify([row.read_model, row.key, row.position]);
      if (this.reported.has(id)) continue;
      this.reported.add(id);
      await this.alarms.raise({
        source: 'read-model',
        kind: 'read-model-differs',
        position: row.position,
        detail: `${row.read_model} holds ${row.key} at position ${row.position}, which no entry of the log records: it is not applied`,
      });
    }
  }
}
