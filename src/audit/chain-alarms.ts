import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock } from '../platform/clock';
import { RevisionConflictError } from '../platform/event-store/event-store.errors';
import { EventStore } from '../platform/event-store/event-store.port';
import { EVENT_SCHEMA_VERSION } from '../platform/identity/command-context';
import { sha256Hex } from '@crcs/tlog';
import { CHAIN_ALARM_RAISED, chainAlarmStream, type ChainAlarm } from './chain-alarm.events';

/** A failed recording is tried again after this, doubling up to LAST_RETRY_MS. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60_000;

/**
 * The one way to raise a chain alarm: it logs it, keeps it for `/health` (degraded from then on,
 * until the service restarts after an operator has looked), and records it in the log as a `ChainAlarmRaised`
 * entry, from which the `chain.alarm` webhook is delivered. The log is what is broken, so recording
 * may fail (the database is down, appends are refused): then the alarm stays in the service's own
 * log (an ERROR line) and is tried again, doubling the wait up to a minute, until it is recorded or
 * the service stops. `raise` never throws: its callers are already handling a failure.
 */
@Injectable()
export class ChainAlarms implements OnApplicationShutdown {
  private readonly logger = new Logger('ChainAlarms');
  /** Alarms not recorded yet, by stream: the same alarm raised twice is tried once. */
  private readonly pending = new Map<string, Promise<void>>();
  /** Every alarm raised since start, once per stream. */
  private readonly raised = new Map<string, ChainAlarm>();
  private readonly stopping = new AbortController();
  private readonly unwatch: () => void;

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {
    // An append that found the head moved: it refuses, and this says so.
    this.unwatch = store.watchHead((problem) => void this.raise({ source: 'event-store', ...problem }));
  }

  /** The alarms raised since start, first found first. */
  active(): ChainAlarm[] {
    return [...this.raised.values()];
  }

  /** Resolves once the alarm is recorded, or once the first attempt failed (the retries go on behind). */
  raise(alarm: ChainAlarm): Promise<void> {
    const stream = chainAlarmStream(sha256Hex(JSON.stringify([alarm.source, alarm.kind, alarm.position])).slice(0, 32));
    this.logger.error({ alarm }, `ALARM (${alarm.source}): ${alarm.detail}`);
    if (!this.raised.has(stream)) this.raised.set(stream, alarm);
    const known = this.pending.get(stream);
    if (known) return known;
    let first!: () => void;
    const firstAttempt = new Promise<void>((resolve) => (first = resolve));
    const recording = this.recordUntilDone(stream, alarm, first).finally(() => this.pending.delete(stream));
    this.pending.set(stream, firstAttempt);
    void recording;
    return firstAttempt;
  }

  async onApplicationShutdown(): Promise<void> {
    this.unwatch();
    this.stopping.abort();
  }

  private async recordUntilDone(stream: string, alarm: ChainAlarm, afterFirst: () => void): Promise<void> {
    for (let delay = FIRST_RETRY_MS; ; delay = Math.min(2 * delay, LAST_RETRY_MS)) {
      try {
        const [entry] = await this.store.append(
          stream,
          [
            {
              type: CHAIN_ALARM_RAISED,
              data: { ...alarm, raised_at: this.clock.now().toISOString() },
              metadata: { schemaVersion: EVENT_SCHEMA_VERSION },
            },
          ],
          { expectedRevision: 0 },
        );
        this.logger.warn(
          { alarm, position: entry.position },
          `the alarm is recorded in the log at position ${entry.position}`,
        );
        return afterFirst();
      } catch (error) {
        // Recorded already, by this process or another.
        if (error instanceof RevisionConflictError) return afterFirst();
        this.logger.error(
          { alarm, err: error },
          `ALARM NOT RECORDED in the log (${(error as Error).message}); trying again in ${delay} ms`,
        );
        afterFirst();
        await sleep(delay, undefined, { signal: this.stopping.signal }).catch(() => undefined);
        if (this.stopping.signal.aborted) {
          this.logger.error({ alarm }, 'ALARM NOT RECORDED in the log: the service stopped before it could be');
          return;
        }
      }
    }
  }
}
