import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { LogOrigin } from '../platform/event-store/log-origin';
import { fromStoredTree } from '../platform/event-store/merkle-store';
import {
  consistencyPath,
  cosignatures,
  cosignerKey,
  NoteError,
  verifierKey,
  policyCosignatures,
  type PolicyWitness,
  CHECKPOINT_EVENT_TYPE,
  type CheckpointData,
  TLOG_SIZE,
  addCheckpointBody,
} from '@crcs/tlog';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { ChainAlarms } from './chain-alarms';
import { CheckpointNotes, type LoggedHead } from './checkpoint-notes';

/** How many of the newest cosigned checkpoints are looked at for one that meets the quorum. */
const QUORUM_CANDIDATES = 16;

export const NO_QUORUM = "No checkpoint is cosigned by the quorum of LOG_POLICY_FILE's witnesses yet";

/** A witness that does not answer in this time is tried again WITNESS_RETRY_S later: an unreachable witness is not a refusal. */
const REQUEST_TIMEOUT_MS = 10_000;
/** A witness that answers 409 more often than this in one round is not following the protocol. */
const MAX_CONFLICTS = 3;

interface Witness extends PolicyWitness {
  url: string;
  /** Its cosigner key as the table stores it. */
  vkey: string;
}

/**
 * Asks the witnesses of LOG_POLICY_FILE to cosign each new checkpoint (c2sp.org/tlog-witness),
 * from the size each last cosigned, with the stored tree's consistency proof from there; a 409
 * names the witness's own size, and the request is made again from it. Every cosignature is
 * verified with the witness's key before it is stored and served with the checkpoint. A witness
 * that refuses (a proof that does not verify against what it cosigned, an old size beyond the
 * checkpoint, another root at the same size) is saying the log does not extend what it saw: a
 * chain alarm. A witness that is down is retried, and is no alarm.
 */
@Injectable()
export class Cosignatures implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Cosignatures');
  private readonly witnesses: Witness[];
  /** The size each witness said (in a 409) it last cosigned, by key: where its next request starts. */
  private readonly sizes = new Map<string, number>();
  /** Witnesses that did not answer, by key: since when, and the checkpoint they were first asked then. */
  private readonly silentSince = new Map<string, { since: number; size: number }>();
  private readonly refusalListeners: ((size: number, detail: string) => void)[] = [];
  private running?: Promise<void>;
  private again = false;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly config: AppConfig,
    private readonly origin: LogOrigin,
    private readonly alarms: ChainAlarms,
    private readonly notes: CheckpointNotes,
  ) {
    this.witnesses = (config.logPolicy?.witnesses ?? []).flatMap((w) =>
      w.url ? [{ ...w, url: w.url.replace(/\/+$/, ''), vkey: cosignerKey(w.key.name, w.key.key) }] : [],
    );
  }

  onApplicationBootstrap(): void {
    const policy = this.config.logPolicy;
    const key = this.config.checkpointSigningKey;
    if (policy && key && policy.logs.length > 0) {
      const ours = verifierKey(this.origin.name, key);
      if (!policy.logs.some((log) => verifierKey(log.key.name, log.key.key) === ours)) {
        // Not fatal (the witnesses still cosign), but an auditor holding this policy would refuse every checkpoint.
        this.logger.error(
          `LOG_POLICY_FILE names no log with this log's key ${ours}: a verifier using that policy refuses its checkpoints`,
        );
      }
    }
    // A checkpoint signed while the service was down, or a witness that was down, is asked at start.
    this.collect();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  /** Asks every witness for the latest checkpoint; one round at a time, and one more if asked meanwhile. */
  collect(): void {
    if (this.witnesses.length === 0 || !this.config.checkpointSigningKey || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((error: Error) => this.logger.error({ err: error }, `collecting cosignatures failed: ${error.message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.collect();
        }
      });
  }

  /** Resolves when no round is running (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * The head's checkpoint note with the cosignatures the policy's witnesses made on it, as
   * `GET /log/checkpoint` serves it: each verified with its witness's key as it is served, so a
   * line edited in the database is never passed on.
   */
  async cosignedNote(head: LoggedHead): Promise<string> {
    const note = await this.notes.note(head);
    return `${note}${await this.lines(note, head)}`;
  }

  /**
   * The note `GET /log/checkpoint` serves: with a policy of witnesses, the newest checkpoint whose
   * cosignatures meet its quorum (a client that checks the quorum then never gets a checkpoint it
   * must refuse, nor one a witness may yet refuse); without one, the newest signed. The newest
   * signed checkpoint stays readable, with what cosignatures it has, at `GET /admin/audit/witnessing`.
   */
  async servedNote(): Promise<string> {
    const latest = await this.notes.latestSigned();
    const policy = this.config.logPolicy;
    if (!policy || this.witnesses.length === 0) return this.cosignedNote(latest);
    const candidates = await this.db.query<{ data: CheckpointData & LoggedHead }>(
      `select e.data from events e
         where e.event_type = $1
           and exists (select 1 from checkpoint_cosignatures c
                        where c.tree_size = (e.data->>'tree_size')::bigint and c.root_hash = decode(e.data->>'root_hash', 'hex'))
         order by e.position desc limit $2`,
      [CHECKPOINT_EVENT_TYPE, QUORUM_CANDIDATES],
    );
    for (const { data } of candidates) {
      const note = await this.cosignedNote(data);
      if (policyCosignatures(note, policy).met) return note;
    }
    throw new DomainError(
      'NOT_FOUND',
      `${NO_QUORUM} (the newest signed checkpoint, of tree size ${latest.tree_size}, is at GET /admin/audit/witnessing)`,
      HttpStatus.NOT_FOUND,
    );
  }

  /** The largest tree size the witness (by its cosigner key) cosigned, as far as the log knows; undefined: none. */
  async lastCosigned(witnessKey: string): Promise<number | undefined> {
    const [row] = await this.db.query<{ size: string | null }>(
      'select max(tree_size) as size from checkpoint_cosignatures where witness_key = $1',
      [witnessKey],
    );
    // A string from the driver (bigint): '0' is a size too.
    return row?.size ? Number(row.size) : undefined;
  }

  /** The stored cosignature lines on this head that verify with their witness's key, each ending in a newline. */
  private async lines(note: string, head: LoggedHead): Promise<string> {
    if (this.witnesses.length === 0) return '';
    const rows = await this.db.query<{ witness_key: string; signature_line: string }>(
      "select witness_key, signature_line from checkpoint_cosignatures where tree_size = $1 and root_hash = decode($2, 'hex') order by witness_key",
      [head.tree_size, head.root_hash],
    );
    let lines = '';
    for (const row of rows) {
      const witness = this.witnesses.find((w) => w.vkey === row.witness_key);
      if (!witness) continue;
      if (this.verified(note, `${row.signature_line}\n`, witness)) lines += `${row.signature_line}\n`;
      else {
        await this.alarms.raise({
          source: 'cosignatures',
          kind: 'modified',
          position: head.tree_size,
          detail: `the stored cosignature of witness ${witness.name} on the checkpoint of tree size ${head.tree_size} does not verify with its key`,
        });
      }
    }
    return lines;
  }

  private verified(note: string, line: string, witness: Witness): boolean {
    try {
      return cosignatures(`${note}${line}`, [witness.key]).size === 1;
    } catch (error) {
      if (error instanceof NoteError) return false;
      throw error;
    }
  }

  private async round(): Promise<void> {
    let head: LoggedHead;
    let note: string;
    try {
      head = await this.notes.latestSigned();
      note = await this.notes.note(head);
    } catch (error) {
      // No checkpoint yet, or one that does not verify (alarmed already): nothing to ask anyone to cosign.
      if (error instanceof DomainError) return;
      throw error;
    }
    await Promise.all(this.witnesses.map((witness) => this.ask(witness, note, head)));
  }

  private async ask(witness: Witness, note: string, head: LoggedHead): Promise<void> {
    const size = head.tree_size;
    // Cosigned only if on this root: after a rewrite re-signed at the same size, the witness's cosignature of the old root
    // is still stored, and this checkpoint must still be put to the witness, which refuses it.
    const [have] = await this.db.query(
      "select 1 from checkpoint_cosignatures where tree_size = $1 and root_hash = decode($2, 'hex') and witness_key = $3",
      [size, head.root_hash, witness.vkey],
    );
    if (have) return;
    let old = this.sizes.get(witness.vkey) ?? (await this.lastCosigned(witness.vkey)) ?? 0;
    const where = `witness ${witness.name} (${witness.url})`;
    for (let conflicts = 0; conflicts <= MAX_CONFLICTS; conflicts++) {
      // An old size beyond the checkpoint is sent as it is: the witness refuses it, in its own words.
      const from = old;
      const proof =
        from > 0 && from < size ? await fromStoredTree(this.db, (node) => consistencyPath(from, size, node)) : [];
      let status: number;
      let type: string;
      let text: string;
      try {
        const response = await fetch(`${witness.url}/add-checkpoint`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain; charset=utf-8' },
          body: addCheckpointBody(from, proof, note),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        status = response.status;
        type = response.headers.get('content-type') ?? '';
        text = await response.text();
      } catch (error) {
        return this.tryLater(witness, size, `${where} did not answer (${(error as Error).message})`);
      }
      if (status === 409 && type.startsWith(TLOG_SIZE)) {
        const theirs = /^(0|[1-9]\d*)\n$/.test(text) ? Number(text) : NaN;
        if (!Number.isSafeInteger(theirs) || theirs === from)
          return this.refused(
            size,
            `${where} refused to cosign the checkpoint of tree size ${size}: 409 ${JSON.stringify(text)} to old size ${from}`,
          );
        this.sizes.set(witness.vkey, theirs);
        old = theirs;
        continue;
      }
      if (status === 200) return this.store(witness, where, note, head, text);
      if (status >= 500 || status === 429)
        return this.tryLater(witness, size, `${where} answered ${status}: ${text.trim()}`);
      return this.refused(
        size,
        `${where} refused to cosign the checkpoint of tree size ${size}: ${status} ${text.trim()}`,
      );
    }
    return this.refused(
      size,
      `${where} answered 409 more than ${MAX_CONFLICTS} times in a row to the checkpoint of tree size ${size}`,
    );
  }

  private async store(witness: Witness, where: string, note: string, head: LoggedHead, text: string): Promise<void> {
    const line = text
      .split('\n')
      .find((candidate) => candidate !== '' && this.verified(note, `${candidate}\n`, witness));
    if (!line) {
      return this.refused(
        head.tree_size,
        `${where} answered the checkpoint of tree size ${head.tree_size} with no cosignature that verifies with its key ${witness.vkey}: ${JSON.stringify(text.slice(0, 300))}`,
        'bad-cosignature',
      );
    }
    const timestamp = cosignatures(`${note}${line}\n`, [witness.key]).get(witness.key)!;
    await this.db.query(
      "insert into checkpoint_cosignatures (tree_size, root_hash, witness_key, signature_line, cosigned_at) values ($1, decode($2, 'hex'), $3, $4, to_timestamp($5)) on conflict do nothing",
      [head.tree_size, head.root_hash, witness.vkey, line, timestamp],
    );
    this.sizes.set(witness.vkey, head.tree_size);
    this.silentSince.delete(witness.vkey);
  }

  /** `position`: the checkpoint's tree size, its last entry's position: each checkpoint refused is an alarm of its own. */
  private async refused(size: number, detail: string, kind = 'refused'): Promise<void> {
    for (const listener of this.refusalListeners) listener(size, detail);
    await this.alarms.raise({ source: 'witness', kind, position: size, detail });
  }

  /** `listener` hears of each refusal: the signer stops on it, as it must never sign a fork. */
  onRefusal(listener: (size: number, detail: string) => void): void {
    this.refusalListeners.push(listener);
  }

  /**
   * A witness that stays silent is no refusal, but a log nobody outside has cosigned for long is
   * one its operator could fork unseen: past WITNESS_ALARM_AFTER_S it is an alarm (one per silence).
   */
  private tryLater(witness: Witness, size: number, why: string): void {
    this.logger.warn(`${why}; asking again in ${this.config.witnessRetryS} s`);
    const silent = this.silentSince.get(witness.vkey) ?? { since: Date.now(), size };
    this.silentSince.set(witness.vkey, silent);
    const seconds = Math.floor((Date.now() - silent.since) / 1000);
    if (seconds >= this.config.witnessAlarmAfterS) {
      void this.alarms.raise({
        source: 'witness',
        kind: 'silent',
        position: silent.size,
        detail: `witness ${witness.name} (${witness.url}) has cosigned nothing for ${seconds} s (WITNESS_ALARM_AFTER_S is ${this.config.witnessAlarmAfterS}), since it was asked to cosign the checkpoint of tree size ${silent.size}: ${why}`,
      });
    }
    if (this.retry || this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.collect();
    }, this.config.witnessRetryS * 1000);
    this.retry.unref();
  }
}
