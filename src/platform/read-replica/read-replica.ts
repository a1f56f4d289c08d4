import { Logger } from '@nestjs/common';
import type { Database } from '../event-store/sql';

/**
 * `off`: no READ_DATABASE_URL. `serving`: within READ_MAX_LAG_MS of the primary, so the replica's
 * queries read it. `lagging`: further behind, or its lag cannot be measured. `unreachable`: it does
 * not answer, or it is not a standby (a promoted one has left the primary's history). In every state
 * but `serving`, those queries read the primary.
 */
export type ReplicaState = 'off' | 'serving' | 'lagging' | 'unreachable';

export interface ReplicaStatus {
  state: ReplicaState;
  /** How far the replica's data is behind the primary's, in milliseconds; null when not known. */
  lagMs: number | null;
  /** The replica holds every transaction the primary had committed at this instant. */
  dataAsOf: Date | null;
}

/** After a failed check the replica is left alone this long, so that a lost one costs one attempt a second, not one per request. */
const RETRY_AFTER_LOSS_MS = 1000;

/**
 * A streaming standby of the primary (READ_DATABASE_URL), and how far behind it is. The lag is
 * measured against the primary at each check: a standby that has replayed all the WAL the primary
 * had flushed is current (lag 0, even when nothing was committed for an hour); otherwise it is as
 * old as the last transaction it replayed, on the primary's clock, which commit times are stamped by.
 * A standby cut off from its primary thus ages instead of passing for current.
 */
export class ReadReplica {
  private readonly logger = new Logger('ReadReplica');
  private lostUntil = 0;
  private lastState: ReplicaState = 'off';

  constructor(
    private readonly primary: Database,
    /** Undefined: no replica is configured. */
    readonly database: Database | undefined,
    readonly maxLagMs: number,
  ) {}

  async status(): Promise<ReplicaStatus> {
    const status = await this.check();
    if (status.state !== this.lastState) {
      const lag = status.lagMs === null ? 'unknown' : `${status.lagMs} ms`;
      this.logger.log(
        { state: status.state, lag_ms: status.lagMs },
        `read replica ${status.state} (lag ${lag}, bound ${this.maxLagMs} ms)`,
      );
      this.lastState = status.state;
    }
    return status;
  }

  private async check(): Promise<ReplicaStatus> {
    if (!this.database) return { state: 'off', lagMs: null, dataAsOf: null };
    if (Date.now() < this.lostUntil) return UNREACHABLE;
    let primary: { lsn: string; at: Date };
    try {
      [primary] = await this.primary.query<{ lsn: string; at: Date }>(
        'select pg_current_wal_flush_lsn()::text as lsn, clock_timestamp() as at',
      );
    } catch {
      // Without the primary's position the lag cannot be known; its own queries fail on their own.
      return { state: 'lagging', lagMs: null, dataAsOf: null };
    }
    let replica: { standby: boolean; caught_up: boolean | null; replayed_at: Date | null };
    try {
      // Asked second: a standby that has replayed what the primary had flushed a moment ago is current.
      [replica] = await this.database.query<{ standby: boolean; caught_up: boolean | null; replayed_at: Date | null }>(
        'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn() >= $1::pg_lsn as caught_up, pg_last_xact_replay_timestamp() as replayed_at',
        [primary.lsn],
      );
    } catch {
      this.lostUntil = Date.now() + RETRY_AFTER_LOSS_MS;
      return UNREACHABLE;
    }
    if (!replica.standby) return UNREACHABLE;
    if (replica.caught_up) return { state: 'serving', lagMs: 0, dataAsOf: primary.at };
    if (!replica.replayed_at) return { state: 'lagging', lagMs: null, dataAsOf: null };
    const lagMs = Math.max(0, primary.at.getTime() - replica.replayed_at.getTime());
    return { state: lagMs <= this.maxLagMs ? 'serving' : 'lagging', lagMs, dataAsOf: replica.replayed_at };
  }

  close(): Promise<void> {
    return this.database?.close() ?? Promise.resolve();
  }
}

const UNREACHABLE: ReplicaStatus = { state: 'unreachable', lagMs: null, dataAsOf: null };
