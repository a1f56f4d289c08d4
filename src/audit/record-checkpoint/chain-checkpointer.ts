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
import { readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_SCHEMA_VERSION } from '../../platform/identity/command-context';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/config';
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
  GENESIS_HASH,
  EMPTY_ROOT,
  MerkleFrontier,
  consistencyPath,
  inclusionPath,
  leafHash,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
  WriterCheck,
  writerKey,
} from '@crcs/tlog';
import { RevisionConflictError } from '../../platform/event-store/event-store.errors';
import { EventStore } from '../../platform/event-store/event-store.port';
import { fromStoredTree, loadFrontier } from '../../platform/event-store/merkle-store';
import { DATABASE, type Database, type Sql } from '../../platform/event-store/sql';
import { matchesStoredHash, readStoredEntries } from '../../platform/verification/stored-entries';
import { writersRequiredFrom } from '../../platform/event-store/writer-authentication';
import { ChainAlarms } from '../chain-alarms';
import { Cosignatures } from '../cosignatures';
import { Witness, WitnessStateError } from '../witness';

/** A failed signing is tried again after this, doubling up to LAST_RETRY_MS while it keeps failing. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;
/** A re-verification round stops after this, and the next goes on from there a second later: it never holds the signer's thread long. */
const REVERIFY_ROUND_MS = 200;
const NEXT_ROUND_MS = 1000;

/**
 * Why the signer would not sign: what it found, where. `witness`: its own state, the witness file,
 * is not as it left it. `refused`: a witness of the policy refused its checkpoint.
 */
export interface SignerAlarm {
  kind: 'modified' | 'deleted' | 'unauthenticated' | 'witness' | 'refused';
  position: number;
  detail: string;
  missing_positions?: { from: number; to: number };
}

class SigningRefused extends Error {
  constructor(readonly alarm: SignerAlarm) {
    super(alarm.detail);
  }
}

/** A tree the signer has verified: `size` entries, the last with chain hash `chainHash`, signed at `signedAt` (ms). */
interface Verified {
  size: number;
  chainHash: string;
  frontier: MerkleFrontier;
  signedAt: number;
}

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
  /** Where the re-verification goes on: the index of the witnessed head that ends the next span to check. */
  private reverifyCursor = 0;
  private readonly stopping = new AbortController();
  /**
   * What this process appended since the last signed head, position to chain hash: it signs over
   * no difference, even one made with the key (a rewrite recomputing hashes and authenticators).
   */
  private readonly appended = new Map<number, string>();
  /** The authentication boundary's position once known: from it on, every entry must carry a valid authenticator. */
  private writersRequiredFrom: number | undefined;
  private readonly writerKey: Buffer | undefined;
  /** Stopping: whatever grew is signed now, not when it is old enough. */
  private closing = false;

  constructor(
    private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly witness: Witness,
    @Optional() private readonly alarms?: ChainAlarms,
    @Optional() private readonly cosignatures?: Cosignatures,
  ) {
    this.writerKey = config.checkpointSigningKey && writerKey(config.checkpointSigningKey);
    cosignatures?.onRefusal((size, detail) => void this.witnessRefused(size, detail));
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
      await this.stillRefused();
      if (!(await this.witness.load().catch(witnessRefusal))) await this.startWitness(key);
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
      for (const e of events) this.appended.set(e.position, e.hash);
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
    const started = performance.now();
    try {
      const heads = await this.witness.load().catch(witnessRefusal);
      if (!heads) {
        // Not yet created, before the first signing: that creates it, or refuses.
        if (this.signed) witnessRefusal(WitnessStateError.missing(this.witness.path));
        return true;
      }
      const keys = keyRing([createPublicKey(this.config.checkpointSigningKey)]);
      while (performance.now() - started < budgetMs) {
        if (this.reverifyCursor >= heads.length) {
          this.reverifyCursor = 0;
          return true;
        }
        const i = this.reverifyCursor++;
        await this.checkSpan(heads[i - 1], heads[i], keys);
      }
      return false;
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

  /** The entries between two witnessed heads, from the first's signed root, must give the second's. */
  private async checkSpan(
    before: SignedTreeHead | undefined,
    head: SignedTreeHead,
    keys: ReadonlyMap<string, KeyObject>,
  ): Promise<void> {
    if (checkSignature(head, keys) !== 'valid') {
      throw new SigningRefused({
        kind: 'witness',
        position: head.tree_size,
        detail: `the witnessed tree head of size ${head.tree_size} does not carry this key's signature`,
      });
    }
    const from = before?.tree_size ?? 0;
    if (head.tree_size <= from) return;
    const start = await this.trustedTree(from, before ? hex(before.root_hash) : EMPTY_ROOT, 0);
    const end = await this.verifyEntries(this.db, start, head.tree_size);
    if (!end.frontier.root().equals(hex(head.root_hash))) {
      throw new SigningRefused({
        kind: 'modified',
        position: head.tree_size,
        detail:
          `entries ${from + 1} to ${head.tree_size} no longer give the root of the tree head signed at ${head.timestamp}: ` +
          'an entry among them was changed, inserted, deleted or moved',
      });
    }
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

  /**
   * A witness refused a checkpoint: the log no longer extends what the witness cosigned, so the
   * next head would sign a fork. The signer stops, and stays stopped across restarts while the
   * refusal file exists: deleting it is the operator's decision, after finding which history is true.
   */
  private async witnessRefused(size: number, detail: string): Promise<void> {
    const alarm: SignerAlarm = {
      kind: 'refused',
      position: size,
      detail:
        `${detail}. The signer has stopped and signs nothing more: the log does not extend what the witness cosigned. ` +
        `Compare the log with the witness's checkpoint (npm run verify-chain), restore the true history, then delete ${this.witness.refusalPath} and restart the service`,
    };
    this.refuse(alarm);
    await writeFile(this.witness.refusalPath, `${JSON.stringify(alarm)}\n`, { flag: 'wx', mode: 0o600 }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST')
          this.logger.error({ err: error }, `the refusal could not be kept in ${this.witness.refusalPath}`);
      },
    );
  }

  /** A refusal kept from before (a witness refused, and no operator has acted since) stops the signer at start. */
  private async stillRefused(): Promise<void> {
    const kept = await readFile(this.witness.refusalPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      return `{"kind":"refused","position":0,"detail":"the refusal file cannot be read (${error.code})"}`;
    });
    if (kept === undefined) return;
    let alarm: SignerAlarm;
    try {
      alarm = JSON.parse(kept) as SignerAlarm;
    } catch {
      alarm = { kind: 'refused', position: 0, detail: 'a witness refused an earlier checkpoint' };
    }
    throw new SigningRefused({
      ...alarm,
      detail: `${alarm.detail} (kept in ${this.witness.refusalPath}: delete it once the log is what the witness cosigned)`,
    });
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
      await this.checkSignedEntry(signed);
      await this.checkWitnessTail(key, signed);
      if (head.position - signed.size < this.config.checkpointInterval) {
        // By age, only for entries other than checkpoints: a head's own checkpoint is no reason for another.
        if (!(await this.grownSince(signed.size))) return;
        if (!this.closing && this.clock.now().getTime() - signed.signedAt < this.config.checkpointMaxAgeS * 1000) {
          if (!this.ageTimer) this.wakeWhenOld();
          return;
        }
      }
      let verified = await this.verifyEntries(this.db, signed, head.position);
      const checkpoint = last?.checkpoint ?? 0;
      let treeHead: SignedTreeHead | undefined;
      try {
        await this.store.append(
          checkpointStream(checkpoint + 1),
          async (now, tx) => {
            verified = await this.verifyEntries(tx, verified, now.position);
            this.checkNothingRememberedPast(now.position);
            await this.checkStoredTree(tx, signed, verified);
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
      await this.recordWitnessed(treeHead!);
      this.signed = { ...verified, signedAt: Date.parse(treeHead!.timestamp) };
      for (const position of this.appended.keys()) if (position <= verified.size) this.appended.delete(position);
      this.cosignatures?.collect();
    }
  }

  /** A head not in the witness file would be one the signer could later contradict: failing to write it stops the signing. */
  private async recordWitnessed(head: SignedTreeHead): Promise<void> {
    await this.witness
      .record(head)
      .catch((error: Error) =>
        witnessRefusal(
          error instanceof WitnessStateError
            ? error
            : new WitnessStateError(
                `the tree head of size ${head.tree_size} could not be written to the witness file ${this.witness.path} (${error.message})`,
              ),
        ),
      );
  }

  /**
   * The head to extend: the witness file's last, or a later checkpoint of the log that another
   * process signed with this key, when the stored tree proves it consistent with the witness's; then
   * checked against the stored log. A missing witness file is created only on an empty log.
   */
  private async lastSignedHead(key: KeyObject, stored: CheckpointData | undefined): Promise<Verified> {
    const keys = keyRing([createPublicKey(key)]);
    const witnessed = await this.witness.load().catch(witnessRefusal);
    if (!witnessed) witnessRefusal(WitnessStateError.missing(this.witness.path));
    const last = witnessed.at(-1)!;
    if (checkSignature(last, keys) !== 'valid') {
      throw new SigningRefused({
        kind: 'witness',
        position: last.tree_size,
        detail: `the witness's last tree head (size ${last.tree_size}) does not carry this key's signature`,
      });
    }
    if (stored && checkSignature(stored, keys) !== 'valid') {
      throw new SigningRefused({
        kind: 'modified',
        position: stored.position,
        detail: `the last checkpoint in the log (${stored.checkpoint}) does not carry this key's valid signature`,
      });
    }
    let head: SignedTreeHead = last;
    if (stored && isTreeHeadCheckpoint(stored) && stored.tree_size > last.tree_size) {
      const proof = await fromStoredTree(this.db, (node) =>
        consistencyPath(last.tree_size, stored.tree_size, node),
      ).catch(() => []);
      if (!verifyConsistency(last.tree_size, stored.tree_size, proof, hex(last.root_hash), hex(stored.root_hash))) {
        throw new SigningRefused({
          kind: 'modified',
          position: stored.position,
          detail: `checkpoint ${stored.checkpoint} of the log signs a tree of ${stored.tree_size} entries that the stored tree does not prove consistent with the witness's last head (size ${last.tree_size})`,
        });
      }
      const { checkpoint, position, hash, ...signedHead } = stored;
      head = signedHead;
      await this.recordWitnessed(head);
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
    return this.trustedTree(size, hex(head.root_hash), Date.parse(head.timestamp));
  }

  /**
   * A new witness file, with the signed head of the empty tree: only for a log with no entry yet but
   * its authentication boundary, which a new log's store appends as it opens, before this.
   */
  private async startWitness(key: KeyObject): Promise<void> {
    const { position } = await this.store.head();
    if (position > 1 || (position === 1 && (await writersRequiredFrom(this.db)) !== 1)) {
      witnessRefusal(
        new WitnessStateError(
          `the witness file ${this.witness.path} is missing, but the log already holds ${position} entries: it was deleted or moved. ` +
            'Restore it (or copy it from another process signing this log); the signer will not start afresh',
        ),
      );
    }
    const empty = signTreeHead(key, {
      tree_size: 0,
      root_hash: EMPTY_ROOT.toString('hex'),
      timestamp: this.clock.now().toISOString(),
    });
    await this.witness.create(empty).catch(async (error: NodeJS.ErrnoException) => {
      // Another process sharing the data folder made it first.
      if (error.code !== 'EEXIST')
        witnessRefusal(
          new WitnessStateError(`the witness file ${this.witness.path} could not be created (${error.message})`),
        );
    });
  }

  /** The stored tree of the first `size` entries, checked to have the signed `root`, and the entry it ends with. */
  private async trustedTree(size: number, root: Buffer, signedAt: number): Promise<Verified> {
    const frontier = await loadFrontier(this.db, size).catch(() => undefined);
    if (!frontier?.root().equals(root)) {
      throw new SigningRefused({
        kind: 'modified',
        position: size,
        detail: `the stored Merkle tree of the first ${size} entries does not have the signed root ${root.toString('hex')}`,
      });
    }
    if (size === 0) return { size, chainHash: GENESIS_HASH, frontier, signedAt };
    const [entry] = await this.db.query<{ hash: string }>('select hash from events where position = $1', [size]);
    const path = await fromStoredTree(this.db, (node) => inclusionPath(size - 1, size, node));
    if (!entry || !verifyInclusion(size - 1, size, leafHash(entry.hash), path, root)) {
      throw new SigningRefused({
        kind: 'modified',
        position: size,
        detail: `the entry at position ${size} is not the one the signed tree head of size ${size} covers: an entry up to it was rewritten`,
      });
    }
    return { size, chainHash: entry.hash, frontier, signedAt };
  }

  /** The entry the signed head ends with must still be there, as it was. */
  private async checkSignedEntry(signed: Verified): Promise<void> {
    if (signed.size === 0) return;
    const [entry] = await this.db.query<{ hash: string }>('select hash from events where position = $1', [signed.size]);
    if (entry?.hash === signed.chainHash) return;
    throw new SigningRefused({
      kind: entry ? 'modified' : 'deleted',
      position: signed.size,
      detail: entry
        ? `the entry at position ${signed.size}, the last of the signed tree head, was replaced: the log was cut or rewritten below the head`
        : `the entry at position ${signed.size}, the last of the signed tree head, is gone: entries were cut from the end`,
    });
  }

  /** The witness file must still end with the head last signed (or a later one another process signed), with this key. */
  private async checkWitnessTail(key: KeyObject, signed: Verified): Promise<void> {
    const last = await this.witness.last().catch(witnessRefusal);
    const refuse = (detail: string) => new SigningRefused({ kind: 'witness', position: last.tree_size, detail });
    if (checkSignature(last, keyRing([createPublicKey(key)])) !== 'valid')
      throw refuse(`the last tree head of the witness file ${this.witness.path} does not carry this key's signature`);
    if (
      last.tree_size < signed.size ||
      (last.tree_size === signed.size && !hex(last.root_hash).equals(signed.frontier.root()))
    )
      throw refuse(
        `the witness file ${this.witness.path} ends with a tree head of size ${last.tree_size}, not the one of size ${signed.size} signed last: it was rolled back or replaced`,
      );
  }

  /** Entries this process appended and remembers past the log's end are gone: the log was cut before they were signed. */
  private checkNothingRememberedPast(end: number): void {
    const beyond = [...this.appended.keys()].filter((position) => position > end);
    if (beyond.length === 0) return;
    const last = Math.max(...beyond);
    throw new SigningRefused({
      kind: 'deleted',
      position: end + 1,
      detail: `the log ends at entry ${end}, but this process appended entries up to position ${last}: they were cut from its end before they were signed`,
      missing_positions: { from: end + 1, to: last },
    });
  }

  /** Recomputes entries `from.size + 1` to `to`, each linked to the one before, into a copy of the tree. */
  private async verifyEntries(sql: Sql, from: Verified, to: number): Promise<Verified> {
    const frontier = from.frontier.copy();
    let chainHash = from.chainHash;
    const missing = () =>
      new SigningRefused({
        kind: 'deleted',
        position: frontier.size + 1,
        detail: `the entry at position ${frontier.size + 1} is missing`,
      });
    // Entries no service process wrote (inserted or rewritten by SQL) are never signed. The boundary, once
    // known, is kept: an entry whose type was edited later cannot move it.
    this.writersRequiredFrom ??= this.writerKey && (await writersRequiredFrom(sql, from.size + 1));
    const writers = this.writerKey && new WriterCheck(this.writerKey, this.writersRequiredFrom);
    for await (const batch of readStoredEntries(sql, frontier.size + 1, to)) {
      for (const entry of batch) {
        const e = entry.event;
        const refuse = (detail: string) => new SigningRefused({ kind: 'modified', position: e.position, detail });
        if (e.position !== frontier.size + 1) throw missing();
        if (!matchesStoredHash(entry))
          throw refuse(`the entry at position ${e.position} does not match its stored hash`);
        if (e.prevHash !== chainHash)
          throw refuse(`the entry at position ${e.position} does not link to the entry before it`);
        const unauthenticated = writers?.problem(e.position, e.type, e.hash, e.writerMac);
        if (unauthenticated)
          throw new SigningRefused({ kind: 'unauthenticated', position: e.position, detail: unauthenticated });
        const ours = this.appended.get(e.position);
        if (ours !== undefined && ours !== e.hash)
          throw refuse(
            `the entry at position ${e.position} is not the one this process appended (chain hash ${ours}, now ${e.hash}): it was rewritten before it was signed`,
          );
        frontier.append(leafHash(e.hash));
        chainHash = e.hash;
      }
    }
    if (frontier.size < to) throw missing();
    return { size: to, chainHash, frontier, signedAt: from.signedAt };
  }

  /** The stored tree must be consistent with the signed head and have the root just recomputed from the entries. */
  private async checkStoredTree(tx: Sql, signed: Verified, verified: Verified): Promise<void> {
    const { proof, root } = await fromStoredTree(tx, (node) => ({
      proof: consistencyPath(signed.size, verified.size, node),
      root: treeRoot(verified.size, node),
    }));
    if (
      !root.equals(verified.frontier.root()) ||
      !verifyConsistency(signed.size, verified.size, proof, signed.frontier.root(), root)
    ) {
      throw new SigningRefused({
        kind: 'modified',
        position: verified.size,
        detail: `the stored Merkle tree of ${verified.size} entries is not the one its entries give, or not consistent with the signed head of size ${signed.size}`,
      });
    }
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

const hex = (text: string): Buffer => Buffer.from(text, 'hex');

/** A witness file that cannot be trusted stops the signing, as a log that does not verify does. */
function witnessRefusal(error: unknown): never {
  if (!(error instanceof WitnessStateError)) throw error;
  throw new SigningRefused({ kind: 'witness', position: 0, detail: error.message });
}
