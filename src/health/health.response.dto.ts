import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MissingPositions } from '../audit/verify-hash-chain.response.dto';
import type { ChainAlarm } from '../audit/chain-alarm.events';
import type { SignerAlarm } from '../audit/signing-refused';
import type { Database } from '../platform/event-store/sql';
import { DataSummaryDto } from '../jurisdiction/jurisdiction.response.dto';
import type { ReplicaState } from '../platform/read-replica/read-replica';
import type { ProjectionLag } from '../platform/projections/log-position';
import type { EnforcedRule } from '../rules/rounding-engine';
import { EnforcedRuleDto } from '../transactions/enforced-rule.response.dto';

export class DatabaseHealth {
  @ApiProperty({
    enum: ['postgres', 'embedded'],
    description:
      '`postgres`: the server of DATABASE_URL; `embedded`: the PostgreSQL server the service runs itself under DATA_DIR',
  })
  driver: Database['driver'];

  @ApiProperty({ example: true })
  reachable: boolean;

  @ApiProperty({ type: 'number', nullable: true, example: 0.42 })
  latency_ms: number | null;
}

export class SignerAlarmBody implements SignerAlarm {
  @ApiProperty({
    enum: ['modified', 'deleted', 'unauthenticated', 'witness', 'refused'],
    description:
      "`unauthenticated`: an entry without a valid writer authenticator, which no service process wrote. `witness`: the witness file, the signer's own state, is missing, torn, corrupt or unreadable. `refused`: a witness refused a checkpoint; the detail says what the operator must do before signing resumes",
  })
  kind: SignerAlarm['kind'];

  @ApiProperty({ type: 'integer', example: 1204 })
  position: number;

  @ApiProperty({
    example:
      'the entry at position 1204 is not the one the signed tree head of size 1204 covers: an entry up to it was rewritten',
  })
  detail: string;

  @ApiPropertyOptional({ type: MissingPositions, description: '`deleted`: the positions that are gone' })
  missing_positions?: MissingPositions;
}

export class SignerHealth {
  @ApiProperty({
    enum: ['off', 'signing', 'refused'],
    description:
      '`off`: no CHECKPOINT_SIGNING_KEY. `refused`: the signer found the log or its witness file tampered with and signs nothing more (the service is degraded)',
  })
  state: 'off' | 'signing' | 'refused';

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The last tree head this process signed or verified',
    example: 1000,
  })
  signed_tree_size: number | null;

  @ApiProperty({ type: SignerAlarmBody, nullable: true, description: 'What the signer found, when it refused' })
  alarm: SignerAlarm | null;
}

export class ChainAlarmBody implements ChainAlarm {
  @ApiProperty({
    description:
      'Who found it: `signer`, `verification` (GET /admin/verify-hash-chain), `read-model` (GET /admin/verify-transactions, GET /admin/verify-read-models, its periodic run, or a read by id that found a row without its entry), `event-store` (an append that found the head moved), `webhooks` (a delivery row that names no entry of the log, not sent)',
    example: 'event-store',
  })
  source: string;

  @ApiProperty({ description: '`modified`, `deleted`, `reordered`, `inserted`, `witness`…', example: 'inserted' })
  kind: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 1205 })
  position: number | null;

  @ApiProperty({
    example: "the log holds entries 1205 to 1205 past its head (1204): they were written behind the service's back",
  })
  detail: string;
}

export class ChainHealth {
  @ApiProperty({ type: 'integer', nullable: true, example: 1204 })
  head_position: number | null;

  @ApiProperty()
  signer: SignerHealth;

  @ApiProperty({
    type: [ChainAlarmBody],
    description:
      'Every chain alarm raised since the service started, first found first: any of them degrades the service',
  })
  alarms: ChainAlarm[];
}

export class ReadReplicaHealth {
  @ApiProperty({
    enum: ['off', 'serving', 'lagging', 'unreachable'],
    description:
      '`off`: no READ_DATABASE_URL. `serving`: the replica is within READ_MAX_LAG_MS of the primary, and the analytics, export, ' +
      'audit-log and verification queries read it. `lagging`: it is further behind, or its lag cannot be measured; ' +
      '`unreachable`: it does not answer, or is no longer a standby. In both, those queries read the primary: the service is not degraded',
  })
  state: ReplicaState;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'How far its data is behind the primary, in milliseconds; null when not known',
    example: 12,
  })
  lag_ms: number | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'It holds everything the primary had committed at this instant',
    example: '2026-11-26T12:00:00.120Z',
  })
  data_as_of: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'READ_MAX_LAG_MS; null when there is no replica',
    example: 5000,
  })
  max_lag_ms: number | null;
}

export class ProjectionHealth implements ProjectionLag {
  @ApiProperty({ example: 'transaction-list' })
  name: string;

  @ApiProperty({
    enum: ['async'],
    description: 'Always `async`: every read model is built from its checkpoint after the append',
  })
  mode: ProjectionLag['mode'];

  @ApiProperty({ type: 'integer', description: 'The last log position it has applied', example: 1204 })
  position: number;

  @ApiProperty({ type: 'integer', description: 'Entries of the log it has not applied yet', example: 0 })
  lag_entries: number;

  @ApiProperty({
    type: 'integer',
    description: 'How long the oldest entry it has not applied has been in the log, in milliseconds; 0 when none',
    example: 0,
  })
  lag_ms: number;
}

export class HealthReport {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    description:
      '`degraded` (with status 503): the database or the chain head cannot be read, the signer refused to sign a log that does not verify, or a chain alarm was raised',
  })
  status: 'ok' | 'degraded';

  @ApiProperty()
  database: DatabaseHealth;

  @ApiProperty()
  chain: ChainHealth;

  @ApiProperty()
  read_replica: ReadReplicaHealth;

  @ApiProperty({
    type: [ProjectionHealth],
    description:
      'Each read model and how far it is behind the log (empty when the database cannot be read). Lists, analytics and exports answer as of their position; `min_position` waits for it',
  })
  projections: ProjectionHealth[];

  @ApiProperty({ type: 'integer', example: 3600 })
  uptime_seconds: number;

  @ApiProperty({
    type: [EnforcedRuleDto],
    description: 'The rules the service enforces in code, whatever the jurisdiction data says',
  })
  enforced_rules: readonly EnforcedRule[];

  @ApiProperty()
  jurisdiction_data: DataSummaryDto;
}
