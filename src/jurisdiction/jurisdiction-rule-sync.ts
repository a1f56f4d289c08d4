import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import { EventStore } from '../platform/event-store/event-store.port';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { upgradeRecordedRule } from '../rules/jurisdiction-rule';
import type { SeedData, TipCreditRule } from '../rules/seed-data';
import { SEED_FILES_READ, TIP_WAGE_RULES } from './jurisdiction.tokens';
import { importSeedRules, readTipWageRules } from './seed-import';
import { defaultSeedDir } from './seed-loader';
import { readRoundingRuleEntries } from './rule-entries';
import { JurisdictionRuleStore } from './rule-store';

/** The longest a rule change committed by another service process takes to reach this one. */
export const RULE_POLL_MS = 2000;

/**
 * Feeds the rule store the rule versions of the log's rule entries (imported seeds and
 * administrators' changes, never a read model's rows): all of them before the first request, then
 * every entry past the last one seen, on each poll and whenever this process records a change.
 * Before that, at bootstrap (after the signer has set up at module init, on an empty log at the
 * first start), it imports the seed files' changed records and reads the tip-wage rows back. A
 * stored rule this code rejects stops the start, and later is retried on every poll rather than
 * skipped: a dropped rule would round sales under a superseded law.
 */
@Injectable()
export class JurisdictionRuleSync implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('JurisdictionRules');
  private position = 0;
  /** Pulls run one after another, so positions are applied in order. */
  private queue: Promise<void> = Promise.resolve();
  private polling = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly rules: JurisdictionRuleStore,
    private readonly store: EventStore,
    private readonly config: AppConfig,
    @Inject(SEED_FILES_READ) private readonly seeds: SeedData,
    @Inject(TIP_WAGE_RULES) private readonly tipWageRules: Map<string, TipCreditRule[]>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await importSeedRules(this.store, this.db, this.config.seedDir ?? defaultSeedDir(), this.seeds);
    await readTipWageRules(this.db, this.tipWageRules);
    await this.sync();
    this.timer = setInterval(() => this.poll(), RULE_POLL_MS);
    this.timer.unref();
  }

  /** Before the database closes (EventStoreModule closes it on application shutdown). */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.queue;
  }

  /** Resolves once every rule change committed before the call is in the rule store. */
  sync(): Promise<void> {
    const pull = this.queue.then(() => this.pull());
    this.queue = pull.catch(() => undefined);
    return pull;
  }

  private poll(): void {
    if (this.polling) return;
    this.polling = true;
    this.sync()
      .catch((error: unknown) =>
        this.logger.error({ err: error }, 'reading recorded jurisdiction rules failed; retrying on the next poll'),
      )
      .finally(() => {
        this.polling = false;
      });
  }

  private async pull(): Promise<void> {
    for (const { rule, position, hash } of await readRoundingRuleEntries(this.db, this.position)) {
      try {
        this.rules.upsertRule(upgradeRecordedRule(rule), { position, hash });
      } catch (error) {
        throw new Error(
          `the ${String(rule.lookup_key)} rule recorded at log position ${position} is not valid: ${(error as Error).message}`,
        );
      }
      this.position = position;
    }
  }
}
