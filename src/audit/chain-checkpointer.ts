import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_SCHEMA_VERSION } from '../platform/identity/command-context';
import { Clock } from '../platform/clock';
import { AppConfig } from '../platform/config/config';
import {
  CHECKPOINT_EVENT_TYPE,
  checkSignature,
  checkpointData,
  checkpointStream,
  isTreeHeadCheckpoint,
  keyRing,
  signTreeHead,
  type CheckpointData,
  type SignedTreeHead,
  writerKey,
} from '@crcs/tlog';
import { RevisionConflictError } from '../platform/event-store/event-store.errors';
import { EventStore } from '../platform/event-store/event-store.port';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { ChainAlarms } from './chain-alarms';
import { Cosignatures } from './cosignatures';
import { Witness } from './witness';
import { ChainReverifier, type Verified } from './record-checkpoint/chain-reverifier';
import { SigningRefused, type SignerAlarm } from './signing-refused';
import { WitnessClient } from './record-checkpoint/witness-client';

/** A failed signing is tried again after this, doubling up to LAST_RETRY_MS while it keeps failing. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;
/** A re-verification round stops after this, and the next goes on from there a second later: it never holds the signer's thread long. */
const REVERIFY_ROUND_MS = 200;
const NEXT_ROUND_MS = 1000;

/**
 * Signs a tree head once the log has grown `checkpointInterval` entries past the last one, or
 * `checkpointMaxAgeS` seconds after the last one while it grew, and appends it as a checkpoint
 * entry and a witness line. Its state is the witness file (what it last signed, outside the
 * database): it signs only a tree that extends the witness's last head, which it checks from
 * hashes, never from positions it remembers: the stored tree must still have that head's signed
 * root and hold the entry it covered, every entry since is recomputed (hash, link, position), and
 * the stored tree must be consistent with the signed root (an RFC 9162 consistency proof) and have
 * the new root. The last entries are read under the chain-head lock, in the transaction that
 * appends the head. It also re-verifies the whole signed part, one span between two witnessed heads
 * at a time, at start and every `checkpointReverifyS`, in rounds of bounded time. Any failure, or
 * a witness file that is missing, torn, corrupt or unreadable, signs nothing more, raises a chain
 * alarm and turns `/health` degraded.
 *
 * Woken after each local commit that may have crossed the interval, by a timer when the age comes
 * due, and once at start; it never slows an append down except for the few entries it reads under the lock.
 * The checks of the log are its ChainReverifier's; the witness file and the policy's witnesses, its
 * WitnessClient's: this class decides when to sign, signs, and stops on the first refusal.
 */
@Injectable()
export class ChainCheckpointer implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Checkpoints');
  /** The last signed head, verified; undefined until established (again, after another process signed). */
  private signed: Verified | undefined;
  private refusal: SignerAlarm | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private unsubscribe: (() => void) | undefined;
  private ageTimer: NodeJS.Timeout | undefined;
  private reverifyTimer: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();
  /** Stopping: whatever grew is signed now, not when it is old enough. */
  private closing = false;
  private readonly verifier: ChainReverifier;
  private readonly witnesses: WitnessClient;

  constructor(
    private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    witness: Witness,
    @Optional() private readonly alarms?: ChainAlarms,
    @Optional() cosignatures?: Cosignatures,
  ) {
    this.verifier = new ChainReverifier(db, config.checkpointSigningKey && writerKey(config.checkpointSigningKey));
    this.witnesses = new WitnessClient(witness, store, db, clock, cosignatures);
    this.witnesses.onRefusal((alarm) => this.refuse(alarm));
  }

  /** `off`: no signing key. `refused`: it found the log or its own state tampered with and signs nothing more. */
  status(): { state: 'off' | 'signing' | 'refused'; signed_tree_size: number | null; alarm: SignerAlarm | null } {
    const state = !this.config.checkpointSigningKey ? 'off' : this.refusal ? 'refused' : 'signing';
    return { state, signed_tree_size: this.signed?.size ?? null, alarm: this.refusal ?? null };
  }

  /**
   * Before anything is appended (the first start's admin key is, at bootstrap): a missing witness
   * file is created here, and only while the log is empty.
   */
  async onModuleInit(): Promise<void> {
    const key = this.config.checkpointSigningKey;
    if (!key) return;
    try {
      await this.witnesses.stillRefused();
      if (!(await this.witnesses.heads())) await this.witnesses.start(key);
    } catch (error) {
      if (!(error instanceof SigningRefused)) throw error;
      this.refuse(error.alarm);
    }
  }

  onApplicationBootstrap(): void {
    if (!this.config.checkpointSigningKey) {
      this.logger.warn(
        'CHECKPOINT_SIGNING_KEY is not set: no signed tree heads, so a rewrite of the whole tail of the log would go unnoticed',
      );
      return;
    }
    this.unsubscribe = this.store.subscribe((events) => {
      if (this.refusal) return;
      this.verifier.remember(events);
      const signedSize = this.signed?.size ?? 0;
      // An append at or below the signed head means the log was cut behind the service's back.
      if (
        events[0].position <= signedSize ||
        events[events.length - 1].position - signedSize >= this.config.checkpointInterval
      )
        this.wake();
      else if (!this.ageTimer && events.some((e) => e.type !== CHECKPOINT_EVENT_TYPE)) this.wakeWhenOld();
    });
    this.wake();
    this.scheduleReverify(0);
  }

  /**
   * Signs the unsigned tail, however young, before it stops: entries acknowledged and then deleted
   * while the service is down are then caught at the next start (the log ends before the signed
   * head) and by the witnesses, not by their promises alone.
   */
  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    clearTimeout(this.ageTimer);
    clearTimeout(this.reverifyTimer);
    // One attempt, no retry: a database already gone must not hold the shutdown.
    this.stopping.abort();
    if (this.config.checkpointSigningKey && !this.refusal) {
      this.closing = true;
      this.wake();
    }
    await this.idle();
  }

  /** Resolves when no head is being signed or waiting to be tried again (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Signs now what is due (by count or by age, on the service's clock); tests call it after moving their clock. */
  signDue(): Promise<void> {
    this.wake();
    return this.idle();
  }

  /**
   * Re-verifies the signed part from where the last round stopped, span by span (each the entries
   * between two witnessed heads, checked from the first head's signed root to the second's), until
   * `budgetMs` is spent. Resolves true when it went round the whole witness.
   */
  async reverify(budgetMs = Infinity): Promise<boolean> {
    if (this.refusal || !this.config.checkpointSigningKey) return true;
    const until = performance.now() + budgetMs;
    try {
      const heads = await this.witnesses.heads();
      if (!heads) {
        // Not yet created, before the first signing: that creates it, or refuses.
        if (this.signed) this.witnesses.missing();
        return true;
      }
      return await this.verifier.reverify(heads, keyRing([createPublicKey(this.config.checkpointSigningKey)]), until);
    } catch (error) {
      if (!(error instanceof SigningRefused)) throw error;
      this.refuse(error.alarm);
      return true;
    }
  }

  private scheduleReverify(ms: number): void {
    if (this.stopping.signal.aborted) return;
    this.reverifyTimer = setTimeout(() => {
      this.reverify(REVERIFY_ROUND_MS)
        .then((passDone) => this.scheduleReverify(passDone ? this.config.checkpointReverifyS * 1000 : NEXT_ROUND_MS))
        .catch((error: unknown) => {
          this.logger.error({ err: error }, 're-verifying the signed log failed; trying again in a second');
          this.scheduleReverify(NEXT_ROUND_MS);
        });
    }, ms);
    this.reverifyTimer.unref();
  }

  private wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.signUntilDone(this.config.checkpointSigningKey!)
      .catch((error: SigningRefused) => this.refuse(error.alarm))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.refusal) {
          this.again = false;
          this.wake();
        }
      });
  }

  private refuse(alarm: SignerAlarm): void {
    if (this.refusal) return;
    this.refusal = alarm;
    this.logger.error({ alarm }, `ALARM: no tree head will be signed: ${alarm.detail}`);
    void this.alarms?.raise({ source: 'signer', kind: alarm.kind, position: alarm.position, detail: alarm.detail });
  }

  /** A timer for when the unsigned tail gets too old: it then is signed however short it is. */
  private wakeWhenOld(): void {
    const signedAt = this.signed?.signedAt;
    if (signedAt === undefined || this.refusal) return;
    const dueIn = Math.max(0, signedAt + this.config.checkpointMaxAgeS * 1000 - this.clock.now().getTime());
    this.ageTimer = setTimeout(() => {
      this.ageTimer = undefined;
      this.wake();
    }, dueIn);
    this.ageTimer.unref();
  }

  /**
   * Tries again after a failure (a database outage, a pool that stayed full): waiting for the next
   * append instead would leave the entries since the last head unsigned for as long as the log is
   * quiet. Only a refusal ends the attempts, or shutdown, which still lets a due head be signed
   * once but waits for no retry.
   */
  private async signUntilDone(key: KeyObject): Promise<void> {
    for (let delay = FIRST_RETRY_MS; ; delay = Math.min(2 * delay, LAST_RETRY_MS)) {
      try {
        return await this.signWhileDue(key);
      } catch (error) {
        if (error instanceof SigningRefused) throw error;
        if (this.stopping.signal.aborted)
          return this.logger.error({ err: error }, 'signing a tree head failed as the service stopped');
        this.logger.error({ err: error }, `signing a tree head failed; trying again in ${delay} ms`);
        await sleep(delay, undefined, { signal: this.stopping.signal }).catch(() => undefined);
        if (this.stopping.signal.aborted) return;
      }
    }
  }

  private async signWhileDue(key: KeyObject): Promise<void> {
    for (;;) {
      if (this.refusal) return;
      const last = await this.lastCheckpoint();
      // Another process may have signed since: its head, checked like any other, is the one to extend.
      if (!this.signed || (last && last.position > this.signed.size))
        this.signed = await this.lastSignedHead(key, last);
      const signed = this.signed;
      const head = await this.store.head();
      await this.verifier.checkSignedEntry(signed);
      await this.witnesses.checkTail(keyRing([createPublicKey(key)]), signed.size, signed.frontier.root());
      if (head.position - signed.size < this.config.checkpointInterval) {
        // By age, only for entries other than checkpoints: a head's own checkpoint is no reason for another.
        if (!(await this.grownSince(signed.size))) return;
        if (!this.closing && this.clock.now().getTime() - signed.signedAt < this.config.checkpointMaxAgeS * 1000) {
          if (!this.ageTimer) this.wakeWhenOld();
          return;
        }
      }
      let verified = await this.verifier.verifyEntries(this.db, signed, head.position);
      const checkpoint = last?.checkpoint ?? 0;
      let treeHead: SignedTreeHead | undefined;
      try {
        await this.store.append(
          checkpointStream(checkpoint + 1),
          async (now, tx) => {
            verified = await this.verifier.verifyEntries(tx, verified, now.position);
            this.verifier.checkNothingRememberedPast(now.position);
            await this.verifier.checkStoredTree(tx, signed, verified);
            const root = verified.frontier.root().toString('hex');
            treeHead = signTreeHead(key, {
              tree_size: verified.size,
              root_hash: root,
              timestamp: this.clock.now().toISOString(),
            });
            const data = checkpointData(
              checkpoint + 1,
              { position: verified.size, hash: verified.chainHash },
              treeHead,
            );
            return [
              { type: CHECKPOINT_EVENT_TYPE, data: { ...data }, metadata: { schemaVersion: EVENT_SCHEMA_VERSION } },
            ];
          },
          { expectedRevision: 0 },
        );
      } catch (error) {
        if (!(error instanceof RevisionConflictError)) throw error;
        // Another process signed this checkpoint: start again from its head.
        this.signed = undefined;
        continue;
      }
      await this.witnesses.record(treeHead!);
      this.signed = { ...verified, signedAt: Date.parse(treeHead!.timestamp) };
      this.verifier.forgetUpTo(verified.size);
      this.witnesses.collect();
    }
  }

  /**
   * The head to extend: the witness file's last, or a later checkpoint of the log that another
   * process signed with this key, when the stored tree proves it consistent with the witness's; then
   * checked against the stored log. A missing witness file is created only on an empty log.
   */
  private async lastSignedHead(key: KeyObject, stored: CheckpointData | undefined): Promise<Verified> {
    const keys = keyRing([createPublicKey(key)]);
    const last = await this.witnesses.lastHead(keys);
    if (stored && checkSignature(stored, keys) !== 'valid') {
      throw new SigningRefused({
        kind: 'modified',
        position: stored.position,
        detail: `the last checkpoint in the log (${stored.checkpoint}) does not carry this key's valid signature`,
      });
    }
    let head: SignedTreeHead = last;
    if (stored && isTreeHeadCheckpoint(stored) && stored.tree_size > last.tree_size) {
      const { checkpoint, position, hash, ...signedHead } = stored;
      if (!(await this.verifier.storedConsistent(last, signedHead))) {
        throw new SigningRefused({
          kind: 'modified',
          position: stored.position,
          detail: `checkpoint ${stored.checkpoint} of the log signs a tree of ${stored.tree_size} entries that the stored tree does not prove consistent with the witness's last head (size ${last.tree_size})`,
        });
      }
      head = signedHead;
      await this.witnesses.record(head);
    }
    const size = head.tree_size;
    const chainHead = await this.store.head();
    if (chainHead.position < size) {
      throw new SigningRefused({
        kind: 'deleted',
        position: chainHead.position,
        detail: `the log ends at entry ${chainHead.position}, but a tree head of size ${size} was signed: entries were cut from its end`,
        missing_positions: { from: chainHead.position + 1, to: size },
      });
    }
    return this.verifier.trusted(head);
  }

  private async grownSince(size: number): Promise<boolean> {
    const rows = await this.db.query('select 1 from events where position > $1 and event_type <> $2 limit 1', [
      size,
      CHECKPOINT_EVENT_TYPE,
    ]);
    return rows.length > 0;
  }

  private async lastCheckpoint(): Promise<CheckpointData | undefined> {
    const [row] = await this.db.query<{ data: CheckpointData }>(
      'select data from events where event_type = $1 order by position desc limit 1',
      [CHECKPOINT_EVENT_TYPE],
    );
    return row?.data;
  }
}
