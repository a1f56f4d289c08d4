import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { readRecordedRules } from './read-model/jurisdiction-rules.projector';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { upgradeRecordedRule } from '../rules/jurisdiction-rule';
import { JurisdictionRuleStore } from './rule-store';

/** The longest a rule change committed by another service process takes to reach this one. */
export const RULE_POLL_MS = 2000;

/**
 * Feeds the rule store the rule versions administrators recorded (the rm_jurisdiction_rules read
 * model): all of them before the first request, then every row whose position moved past the last
 * one seen, on each poll and whenever this process records a change. A stored rule this code
 * rejects stops the start, and later is retried on every poll rather than skipped: a dropped rule
 * would round sales under a superseded law.
 */
@Injectable()
export class JurisdictionRuleSync implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('JurisdictionRules');
  private position = 0;
  /** Pulls run one after another, so positions are applied in order. */
  private queue: Promise<void> = Promise.resolve();
  private polling = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly rules: JurisdictionRuleStore,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.sync();
  }

  onApplicationBootstrap(): void {
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
    for (const { rule, position } of await readRecordedRules(this.db, this.position)) {
      try {
        this.rules.upsertRule(upgradeRecordedRule(rule));
      } catch (error) {
        throw new Error(
          `rm_jurisdiction_rules: the ${String(rule.lookup_key)} rule recorded at log position ${position} is not valid: ${(error as Error).message}`,
        );
      }
      this.position = position;
    }
  }
}
