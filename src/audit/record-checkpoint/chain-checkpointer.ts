import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createPublicKey, type KeyObject } from 'node:crypto';
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
} from '../../platform/verification/checkpoint';
import { RevisionConflictError } from '../../platform/event-store/event-store.errors';
import { EventStore } from '../../platform/event-store/event-store.port';
import { GENESIS_HASH } from '../../platform/event-store/entry-hash';
import { fromStoredTree, loadFrontier } from '../../platform/event-store/merkle-store';
import { EMPTY_ROOT, MerkleFrontier, consistencyPath, inclusionPath, leafHash, treeRoot, verifyConsistency, verifyInclusion } from '../../platform/event-store/merkle-tree';
import { DATABASE, type Database, type Sql } from '../../platform/event-store/sql';
import { matchesStoredHash, readStoredEntries } from '../../platform/verification/stored-entries';
import { WriterCheck, writerKey } from '../../platform/event-store/writer-mac';
import { ChainAlarms } from '../chain-alarms';
import { Witness } from '../witness';

/** A failed signing is tried again after this, doubling up to LAST_RETRY_MS while it keeps failing. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/** Why the signer would not sign: what it found, where. */
export interface SignerAlarm {
  kind: 'modified' | 'deleted' | 'unauthenticated';
  position: number;
  detail: string;
  missing_positions?: { from: number; to: number };
}

class SigningRefused extends Error {
  constructor(readonly alarm: SignerAlarm) {
    super(alarm.detail);
  }
}

/** A tree the signer has verified: `size` entries, the last with chain hash `chainHash`. */
interface Verified {
  size: number;
  chainHash: string;
  frontier: MerkleFrontier;
}

/**
 * Signs a tree head once the log has grown `checkpointInterval` entries past the last one, and
 * appends it as a checkpoint entry and a witness line. It never signs what it has not verified
 * (DESIGN.md "Verifiable log"): from the last signed head (the witness's, when there is one, over
 * the database's) it checks that the stored tree still has that head's root and holds the entry
 * it covered, recomputes every entry since (hash, link, position), compares each with what this
 * process itself appended, and checks that the stored tree is consistent with the signed one and
 * has the new root. The last entries are read under the chain-head lock, in the transaction that
 * appends the head. Any failure signs nothing, raises an alarm and turns `/health` degraded.
 *
 * Woken after each local commit that may have crossed the interval (and once at start); it never
 * slows an append down except for the few entries it reads under the lock.
 */
@Injectable()
export class ChainCheckpointer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Checkpoints');
  /** The last signed head, verified; undefined until established (again, after another process signed). */
  private signed: Verified | undefined;
  /** Hashes of the entries this process appended since the signed head: a rewrite of them is caught by position. */
  private readonly appended = new Map<number, string>();
  private refusal: SignerAlarm | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private unsubscribe: (() => void) | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly witness: Witness,
    @Optional() private readonly alarms?: ChainAlarms,
  ) {}

  /** `off`: no signing key. `refused`: it found the log tampered with and signs nothing more. */
  status(): { state: 'off' | 'signing' | 'refused'; signed_tree_size: number | null; alarm: SignerAlarm | null } {
    const state = !this.config.checkpointSigningKey ? 'off' : this.refusal ? 'refused' : 'signing';
    return { state, signed_tree_size: this.signed?.size ?? null, alarm: this.refusal ?? null };
  }

  onApplicationBootstrap(): void {
    if (!this.config.checkpointSigningKey) {
      this.logger.warn('CHECKPOINT_SIGNING_KEY is not set: no signed tree heads, so a rewrite of the whole tail of the log would go unnoticed');
      return;
    }
    this.unsubscribe = this.store.subscribe((events) => {
      for (const e of events) this.appended.set(e.position, e.hash);
      const signedSize = this.signed?.size ?? 0;
      // An append at or below the signed head means the log was cut behind the service's back.
      if (events[0].position <= signedSize || events[events.length - 1].position - signedSize >= this.config.checkpointInterval) this.wake();
    });
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    this.stopping.abort();
    await this.idle();
  }

  /** Resolves when no head is being signed or waiting to be tried again (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.signUntilDone(this.config.checkpointSigningKey!)
      .catch((error: SigningRefused) => {
        this.refusal = error.alarm;
        this.logger.error({ alarm: error.alarm }, `ALARM: the log does not verify, so no tree head was signed: ${error.alarm.detail}`);
        void this.alarms?.raise({ source: 'signer', kind: error.alarm.kind, position: error.alarm.position, detail: error.alarm.detail });
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.refusal) {
          this.again = false;
          this.wake();
        }
      });
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
        if (this.stopping.signal.aborted) return this.logger.error({ err: error }, 'signing a tree head failed as the service stopped');
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
      if (!this.signed || (last && last.position > this.signed.size)) this.signed = await this.lastSignedHead(key, last);
      const signed = this.signed;
      // Taken before the head is read: an append that commits while the read is under way reaches
      // `appended` (its listener runs) and may still be missing from the read's snapshot.
      const appendedUpTo = Math.max(0, ...this.appended.keys());
      const head = await this.store.head();
      this.checkNothingLost(appendedUpTo, head.position);
      await this.checkSignedEntry(signed);
      if (head.position - signed.size < this.config.checkpointInterval) return;
      let verified = await this.verifyEntries(this.db, signed, head.position);
      const checkpoint = last?.checkpoint ?? 0;
      let treeHead: SignedTreeHead | undefined;
      try {
        await this.store.append(
          checkpointStream(checkpoint + 1),
          async (now, tx) => {
            verified = await this.verifyEntries(tx, verified, now.position);
            await this.checkStoredTree(tx, signed, verified);
            const root = verified.frontier.root().toString('hex');
            treeHead = signTreeHead(key, { tree_size: verified.size, root_hash: root, timestamp: this.clock.now().toISOString() });
            const data = checkpointData(checkpoint + 1, { position: verified.size, hash: verified.chainHash }, treeHead);
            return [{ type: CHECKPOINT_EVENT_TYPE, data: { ...data }, metadata: { schemaVersion: EVENT_SCHEMA_VERSION } }];
          },
          { expectedRevision: 0 },
        );
      } catch (error) {
        if (!(error instanceof RevisionConflictError)) throw error;
        // Another process signed this checkpoint: start again from its head.
        this.signed = undefined;
        continue;
      }
      await this.witness.record(treeHead!);
      this.signed = verified;
      for (const position of this.appended.keys()) if (position <= verified.size) this.appended.delete(position);
    }
  }

  /**
   * The head to extend: the later of the witness's last line and the database's last checkpoint
   * (the witness alone when the database's is not consistent with it), checked against the stored tree.
   */
  private async lastSignedHead(key: KeyObject, stored: CheckpointData | undefined): Promise<Verified> {
    const keys = keyRing([createPublicKey(key)]);
    const witnessed = await this.witness.lastHead();
    if (witnessed && checkSignature(witnessed, keys) !== 'valid') {
      throw new SigningRefused({ kind: 'modified', position: witnessed.tree_size, detail: `the witness's last tree head (size ${witnessed.tree_size}) does not carry this key's signature` });
    }
    if (stored && checkSignature(stored, keys) !== 'valid') {
      throw new SigningRefused({ kind: 'modified', position: stored.position, detail: `the last checkpoint in the log (${stored.checkpoint}) does not carry this key's valid signature` });
    }
    const fromDatabase = stored && isTreeHeadCheckpoint(stored) ? stored : undefined;
    let head = witnessed ?? fromDatabase;
    if (witnessed && fromDatabase && fromDatabase.tree_size > witnessed.tree_size) {
      const proof = await fromStoredTree(this.db, (node) => consistencyPath(witnessed.tree_size, fromDatabase.tree_size, node)).catch(() => []);
      if (verifyConsistency(witnessed.tree_size, fromDatabase.tree_size, proof, hex(witnessed.root_hash), hex(fromDatabase.root_hash))) head = fromDatabase;
    }
    const size = head?.tree_size ?? stored?.position ?? 0;
    const chainHead = await this.store.head();
    if (chainHead.position < size) {
      throw new SigningRefused({
        kind: 'deleted',
        position: chainHead.position,
        detail: `the log ends at entry ${chainHead.position}, but a tree head of size ${size} was signed: entries were cut from its end`,
        missing_positions: { from: chainHead.position + 1, to: size },
      });
    }
    const frontier = await loadFrontier(this.db, size).catch(() => undefined);
    const root = head ? hex(head.root_hash) : (frontier?.root() ?? EMPTY_ROOT);
    if (!frontier?.root().equals(root)) {
      throw new SigningRefused({ kind: 'modified', position: size, detail: `the stored Merkle tree of the first ${size} entries does not have the signed root ${root.toString('hex')}` });
    }
    if (size === 0) return { size, chainHash: GENESIS_HASH, frontier };
    const [entry] = await this.db.query<{ hash: string }>('select hash from events where position = $1', [size]);
    const path = await fromStoredTree(this.db, (node) => inclusionPath(size - 1, size, node));
    if (!entry || !verifyInclusion(size - 1, size, leafHash(entry.hash), path, root)) {
      throw new SigningRefused({
        kind: 'modified',
        position: size,
        detail: `the entry at position ${size} is not the one the signed tree head of size ${size} covers: an entry up to it was rewritten`,
      });
    }
    return { size, chainHash: entry.hash, frontier };
  }

  /** Entries this process appended (up to `last`, all committed before the head was read) that the log no longer reaches: cut from its end. */
  private checkNothingLost(last: number, headPosition: number): void {
    if (last <= headPosition) return;
    throw new SigningRefused({
      kind: 'deleted',
      position: headPosition,
      detail: `this process appended entries up to position ${last}, but the log ends at ${headPosition}: entries were cut from its end`,
      missing_positions: { from: headPosition + 1, to: last },
    });
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

  /** Recomputes entries `from.size + 1` to `to`, each linked to the one before, into a copy of the tree. */
  private async verifyEntries(sql: Sql, from: Verified, to: number): Promise<Verified> {
    const frontier = from.frontier.copy();
    let chainHash = from.chainHash;
    const missing = () => new SigningRefused({ kind: 'deleted', position: frontier.size + 1, detail: `the entry at position ${frontier.size + 1} is missing` });
    const key = this.config.checkpointSigningKey;
    // Entries no service process wrote (inserted or rewritten by SQL) are never signed.
    const writers = key && new WriterCheck(writerKey(key), from.size > 0 && (await sql.query('select 1 from events where position = $1 and writer_mac is not null', [from.size])).length > 0);
    for await (const batch of readStoredEntries(sql, frontier.size + 1, to)) {
      for (const entry of batch) {
        const e = entry.event;
        const refuse = (detail: string) => new SigningRefused({ kind: 'modified', position: e.position, detail });
        if (e.position !== frontier.size + 1) throw missing();
        if (!matchesStoredHash(entry)) throw refuse(`the entry at position ${e.position} does not match its stored hash`);
        if (e.prevHash !== chainHash) throw refuse(`the entry at position ${e.position} does not link to the entry before it`);
        const own = this.appended.get(e.position);
        if (own !== undefined && own !== e.hash) throw refuse(`the entry at position ${e.position} is not the one this process appended there: it was rewritten`);
        const unauthenticated = writers?.problem(e.position, e.hash, e.writerMac);
        if (unauthenticated) throw new SigningRefused({ kind: 'unauthenticated', position: e.position, detail: unauthenticated });
        frontier.append(leafHash(e.hash));
        chainHash = e.hash;
      }
    }
    if (frontier.size < to) throw missing();
    return { size: to, chainHash, frontier };
  }

  /** The stored tree must be consistent with the signed head and have the root just recomputed from the entries. */
  private async checkStoredTree(tx: Sql, signed: Verified, verified: Verified): Promise<void> {
    const { proof, root } = await fromStoredTree(tx, (node) => ({
      proof: consistencyPath(signed.size, verified.size, node),
      root: treeRoot(verified.size, node),
    }));
    if (!root.equals(verified.frontier.root()) || !verifyConsistency(signed.size, verified.size, proof, signed.frontier.root(), root)) {
      throw new SigningRefused({
        kind: 'modified',
        position: verified.size,
        detail: `the stored Merkle tree of ${verified.size} entries is not the one its entries give, or not consistent with the signed head of size ${signed.size}`,
      });
    }
  }

  private async lastCheckpoint(): Promise<CheckpointData | undefined> {
    const [row] = await this.db.query<{ data: CheckpointData }>('select data from events where event_type = $1 order by position desc limit 1', [
      CHECKPOINT_EVENT_TYPE,
    ]);
    return row?.data;
  }
}

const hex = (text: string): Buffer => Buffer.from(text, 'hex');
