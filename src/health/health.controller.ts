import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/roles.decorator';
import { EventStore } from '../event-store/event-store.port';
import { DATABASE, type Database } from '../event-store/sql';
import { JurisdictionResolver, type DataSummary } from '../jurisdiction/jurisdiction-resolver';
import { ENFORCED_RULES, type EnforcedRule } from './enforced-rules';

/** A database that does not answer within this is reported unreachable rather than hanging the probe. */
const DATABASE_PROBE_TIMEOUT_MS = 2000;

export interface HealthReport {
  status: 'ok' | 'degraded';
  database: { driver: Database['driver']; reachable: boolean; latency_ms: number | null };
  chain: { head_position: number | null };
  uptime_seconds: number;
  enforced_rules: readonly EnforcedRule[];
  jurisdiction_data: DataSummary;
}

@Controller()
export class HealthController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly store: EventStore,
    @Inject(ENFORCED_RULES) private readonly enforcedRules: readonly EnforcedRule[],
    private readonly jurisdictions: JurisdictionResolver,
  ) {}

  /** 503 when degraded, so a load balancer takes the instance out of rotation. */
  @Get('health')
  @Public()
  @Header('Cache-Control', 'no-store')
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const database = await this.probeDatabase();
    const headPosition = database.reachable ? await this.headPosition() : null;
    const status = database.reachable && headPosition !== null ? 'ok' : 'degraded';
    void reply.status(status === 'ok' ? 200 : 503);
    return {
      status,
      database: { driver: this.db.driver, ...database },
      chain: { head_position: headPosition },
      uptime_seconds: Math.floor(process.uptime()),
      enforced_rules: this.enforcedRules,
      jurisdiction_data: this.jurisdictions.summary(),
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
