import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { MissingPositions } from '../audit';
import type { FastifyReply } from 'fastify';
import { ChainCheckpointer, type SignerAlarm } from '../audit';
import { Public } from '../platform/identity/roles.decorator';
import { EventStore } from '../platform/event-store/event-store.port';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { JurisdictionResolver } from '../rules/jurisdiction-resolver';
import { DataSummaryDto } from '../jurisdiction';
import type { EnforcedRule } from '../rules/rounding-engine';
import { ENFORCED_RULES, EnforcedRuleDto } from './enforced-rules';
import { Clock } from '../platform/clock';

/** A database that does not answer within this is reported unreachable rather than hanging the probe. */
const DATABASE_PROBE_TIMEOUT_MS = 2000;

class DatabaseHealth {
  @ApiProperty({ enum: ['postgres', 'pglite'], description: '`pglite`: the embedded database under DATA_DIR' })
  driver: Database['driver'];

  @ApiProperty({ example: true })
  reachable: boolean;

  @ApiProperty({ type: 'number', nullable: true, example: 0.42 })
  latency_ms: number | null;
}

class SignerAlarmBody implements SignerAlarm {
  @ApiProperty({ enum: ['modified', 'deleted'] })
  kind: 'modified' | 'deleted';

  @ApiProperty({ type: 'integer', example: 1204 })
  position: number;

  @ApiProperty({ example: 'the entry at position 1204 is not the one this process appended there: it was rewritten' })
  detail: string;

  @ApiPropertyOptional({ type: MissingPositions, description: '`deleted`: the positions that are gone' })
  missing_positions?: MissingPositions;
}

class SignerHealth {
  @ApiProperty({
    enum: ['off', 'signing', 'refused'],
    description: '`off`: no CHECKPOINT_SIGNING_KEY. `refused`: the signer found the log tampered with and signs nothing more (the service is degraded)',
  })
  state: 'off' | 'signing' | 'refused';

  @ApiProperty({ type: 'integer', nullable: true, description: 'The last tree head this process signed or verified', example: 1000 })
  signed_tree_size: number | null;

  @ApiProperty({ type: SignerAlarmBody, nullable: true, description: 'What the signer found, when it refused' })
  alarm: SignerAlarm | null;
}

class ChainHealth {
  @ApiProperty({ type: 'integer', nullable: true, example: 1204 })
  head_position: number | null;

  @ApiProperty()
  signer: SignerHealth;
}

export class HealthReport {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    description: '`degraded` (with status 503): the database or the chain head cannot be read, or the signer refused to sign a log that does not verify',
  })
  status: 'ok' | 'degraded';

  @ApiProperty()
  database: DatabaseHealth;

  @ApiProperty()
  chain: ChainHealth;

  @ApiProperty({ type: 'integer', example: 3600 })
  uptime_seconds: number;

  @ApiProperty({ type: [EnforcedRuleDto], description: 'The rules the service enforces in code, whatever the jurisdiction data says' })
  enforced_rules: readonly EnforcedRule[];

  @ApiProperty()
  jurisdiction_data: DataSummaryDto;
}

@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly store: EventStore,
    @Inject(ENFORCED_RULES) private readonly enforcedRules: readonly EnforcedRule[],
    private readonly jurisdictions: JurisdictionResolver,
    private readonly clock: Clock,
    private readonly signer: ChainCheckpointer,
  ) {}

  /** 503 when degraded, so a load balancer takes the instance out of rotation. */
  @Get('health')
  @Public()
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness and readiness, with what the service enforces and which data it holds' })
  @ApiOkResponse({ type: HealthReport, description: 'Healthy: the database answers and the chain head is readable' })
  @ApiServiceUnavailableResponse({ type: HealthReport, description: 'Degraded: the database or the chain head cannot be read, or the signer refused' })
  @Header('Cache-Control', 'no-store')
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const database = await this.probeDatabase();
    const headPosition = database.reachable ? await this.headPosition() : null;
    const signer = this.signer.status();
    const status = database.reachable && headPosition !== null && signer.state !== 'refused' ? 'ok' : 'degraded';
    void reply.status(status === 'ok' ? 200 : 503);
    return {
      status,
      database: { driver: this.db.driver, ...database },
      chain: { head_position: headPosition, signer },
      uptime_seconds: Math.floor(process.uptime()),
      enforced_rules: this.enforcedRules,
      jurisdiction_data: this.jurisdictions.summary(this.clock.now().toISOString().slice(0, 10)),
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
