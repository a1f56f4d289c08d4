import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { EVENT_SCHEMA_VERSION } from '../../auth/command-context';
import { AppConfig } from '../../config/config';
import { CHECKPOINT_EVENT_TYPE, checkpointStream, signCheckpoint, type CheckpointData } from '../../event-store/chain-checkpoint';
import { RevisionConflictError } from '../../event-store/event-store.errors';
import { EventStore } from '../../event-store/event-store.port';
import { DATABASE, type Database } from '../../event-store/sql';

/**
 * Appends a signed checkpoint once the log has grown `checkpointInterval` entries past the last
 * one. Woken after each local commit that may have crossed the interval (and once at start, for
 * what was appended meanwhile); it never slows an append down. Checkpoint n is appended to stream
 * `checkpoint-<n>` at expected revision 0, so when two processes race for it one wins and the
 * other, on the conflict, reads the new last checkpoint and finds nothing due.
 */
@Injectable()
export class ChainCheckpointer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Checkpoints');
  /** The position the newest checkpoint vouches for, as far as this process knows. */
  private covered = 0;
  private running: Promise<void> | undefined;
  private again = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.checkpointSigningKey) {
      this.logger.warn('CHECKPOINT_SIGNING_KEY is not set: no signed checkpoints, so a rewrite of the whole tail of the log would go unnoticed');
      return;
    }
    this.unsubscribe = this.store.subscribe((events) => {
      if (events[events.length - 1].position - this.covered >= this.config.checkpointInterval) this.wake();
    });
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    await this.idle();
  }

  /** Resolves when no checkpoint is being written (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.checkpointWhileDue(this.config.checkpointSigningKey!)
      .catch((error: unknown) => this.logger.error({ err: error }, 'checkpoint failed; retrying after the next append'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async checkpointWhileDue(key: KeyObject): Promise<void> {
    for (;;) {
      const last = await this.lastCheckpoint();
      this.covered = last.position;
      if ((await this.store.head()).position - last.position < this.config.checkpointInterval) return;
      const checkpoint = last.checkpoint + 1;
      try {
        await this.store.append(
          checkpointStream(checkpoint),
          (head) => [
            { type: CHECKPOINT_EVENT_TYPE, data: { ...signCheckpoint(key, checkpoint, head) }, metadata: { schemaVersion: EVENT_SCHEMA_VERSION } },
          ],
          { expectedRevision: 0 },
        );
      } catch (error) {
        if (!(error instanceof RevisionConflictError)) throw error;
      }
    }
  }

  private async lastCheckpoint(): Promise<Pick<CheckpointData, 'checkpoint' | 'position'>> {
    const [row] = await this.db.query<{ data: CheckpointData }>(
      'select data from events where event_type = $1 order by position desc limit 1',
      [CHECKPOINT_EVENT_TYPE],
    );
    return row?.data ?? { checkpoint: 0, position: 0 };
  }
}
