import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ChainAlarms } from '../audit/chain-alarms';
import { ChainCheckpointer } from '../audit/chain-checkpointer';
import { JurisdictionRuleStore } from '../jurisdiction/rule-store';
import { dataSummary } from '../jurisdiction/rule-views';
import { EventStore } from '../platform/event-store/event-store.port';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { READ_MODELS } from '../platform/event-store/event-store.module';
import { projectionLag, type ProjectionLag } from '../platform/projections/log-position';
import type { Projector } from '../platform/projections/projector';
import { ReadReplica } from '../platform/read-replica/read-replica';
import type { EnforcedRule } from '../rules/rounding-engine';
import { ENFORCED_RULES } from './enforced-rules';
import { HealthQuery } from './health.query';
import { Clock } from '../platform/clock';
import { HealthReport, type ReadReplicaHealth } from './health.response.dto';

/** A database that does not answer within this is reported unreachable rather than hanging the probe. */
const DATABASE_PROBE_TIMEOUT_MS = 2000;

@QueryHandler(HealthQuery)
export class HealthHandler implements IQueryHandler<HealthQuery, HealthReport> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly store: EventStore,
    @Inject(ENFORCED_RULES) private readonly enforcedRules: readonly EnforcedRule[],
    private readonly jurisdictions: JurisdictionRuleStore,
    private readonly clock: Clock,
    private readonly signer: ChainCheckpointer,
    private readonly alarms: ChainAlarms,
    private readonly replica: ReadReplica,
    @Inject(READ_MODELS) private readonly projectors: readonly Projector[],
  ) {}

  async execute(): Promise<HealthReport> {
    const database = await this.probeDatabase();
    const headPosition = database.reachable ? await this.headPosition() : null;
    const signer = this.signer.status();
    const alarms = this.alarms.active();
    return {
      status:
        database.reachable && headPosition !== null && signer.state !== 'refused' && alarms.length === 0
          ? 'ok'
          : 'degraded',
      database: { driver: this.db.driver, ...database },
      chain: { head_position: headPosition, signer, alarms },
      read_replica: await this.replicaHealth(),
      projections: database.reachable ? await this.projections() : [],
      uptime_seconds: Math.floor(process.uptime()),
      enforced_rules: this.enforcedRules,
      jurisdiction_data: dataSummary(this.jurisdictions, this.clock.now().toISOString().slice(0, 10)),
    };
  }

  private async probeDatabase(): Promise<{ reachable: boolean; latency_ms: number | null }> {
    const started = performance.now();
    try {
      await withTimeout(this.db.query('select 1'), DATABASE_PROBE_TIMEOUT_MS);
      return { reachable: true, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
    } catch {
      return { reachable: false, latency_ms: null };
    }
  }

  /** A replica that lags or is lost sends its reads to the primary: it is reported, and degrades nothing. */
  private async replicaHealth(): Promise<ReadReplicaHealth> {
    const { state, lagMs, dataAsOf } = await this.replica.status();
    return {
      state,
      lag_ms: lagMs,
      data_as_of: dataAsOf?.toISOString() ?? null,
      max_lag_ms: state === 'off' ? null : this.replica.maxLagMs,
    };
  }

  /** Reported, and degrades nothing: a read that needs a read model further on waits for it, or answers 503 (min_position). */
  private async projections(): Promise<ProjectionLag[]> {
    try {
      return await withTimeout(projectionLag(this.db, this.projectors), DATABASE_PROBE_TIMEOUT_MS);
    } catch {
      return [];
    }
  }

  private async headPosition(): Promise<number | null> {
    try {
      return (await withTimeout(this.store.head(), DATABASE_PROBE_TIMEOUT_MS)).position;
    } catch {
      return null;
    }
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
