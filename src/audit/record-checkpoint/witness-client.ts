import type { KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { Logger } from '@nestjs/common';
import { EMPTY_ROOT, checkSignature, signTreeHead, type SignedTreeHead } from '@crcs/tlog';
import type { Database } from '../../platform/event-store/sql';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { writersRequiredFrom } from '../../platform/event-store/writer-authentication';
import type { Clock } from '../../platform/clock';
import type { Cosignatures } from '../cosignatures';
import { Witness, WitnessStateError } from '../witness';
import { SigningRefused, type SignerAlarm } from '../signing-refused';

/**
 * What the signer keeps with its witnesses: the witness file, its own state (started on an empty
 * log, every head it signs recorded, its end checked before each signing), and the policy's
 * witnesses, which it asks to cosign each head and whose refusal it keeps in the refusal file. A
 * witness file that cannot be trusted, or a refusal, is a `SigningRefused`, as a log that does not
 * verify is.
 */
export class WitnessClient {
  private readonly logger = new Logger('Checkpoints');

  constructor(
    private readonly witness: Witness,
    private readonly store: EventStore,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly cosignatures?: Cosignatures,
  ) {}

  /** Every head witnessed, in the order signed; undefined when the file does not exist (yet). */
  heads(): Promise<SignedTreeHead[] | undefined> {
    return this.witness.load().catch(witnessRefusal);
  }

  /** A missing witness file, once a head was signed: it was deleted or moved. */
  missing(): never {
    witnessRefusal(WitnessStateError.missing(this.witness.path));
  }

  /** The witness file's last head, which must carry this key's signature. */
  async lastHead(keys: ReadonlyMap<string, KeyObject>): Promise<SignedTreeHead> {
    const witnessed = await this.heads();
    if (!witnessed) this.missing();
    const last = witnessed.at(-1)!;
    if (checkSignature(last, keys) !== 'valid') {
      throw new SigningRefused({
        kind: 'witness',
        position: last.tree_size,
        detail: `the witness's last tree head (size ${last.tree_size}) does not carry this key's signature`,
      });
    }
    return last;
  }

  /**
   * A new witness file, with the signed head of the empty tree: only for a log with no entry yet but
   * its authentication boundary, which a new log's store appends as it opens, before this.
   */
  async start(key: KeyObject): Promise<void> {
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

  /** A head not in the witness file would be one the signer could later contradict: failing to write it stops the signing. */
  async record(head: SignedTreeHead): Promise<void> {
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

  /** The witness file must still end with the head last signed (size `size`, root `root`), or a later one another process signed, with this key. */
  async checkTail(keys: ReadonlyMap<string, KeyObject>, size: number, root: Buffer): Promise<void> {
    const last = await this.witness.last().catch(witnessRefusal);
    const refuse = (detail: string) => new SigningRefused({ kind: 'witness', position: last.tree_size, detail });
    if (checkSignature(last, keys) !== 'valid')
      throw refuse(`the last tree head of the witness file ${this.witness.path} does not carry this key's signature`);
    if (last.tree_size < size || (last.tree_size === size && !Buffer.from(last.root_hash, 'hex').equals(root)))
      throw refuse(
        `the witness file ${this.witness.path} ends with a tree head of size ${last.tree_size}, not the one of size ${size} signed last: it was rolled back or replaced`,
      );
  }

  /** Asks the policy's witnesses to cosign the latest checkpoint, the head just signed. */
  collect(): void {
    this.cosignatures?.collect();
  }

  /**
   * A witness refused a checkpoint: the log no longer extends what the witness cosigned, so the
   * next head would sign a fork. `refuse` stops the signer, which stays stopped across restarts
   * while the refusal file exists: deleting it is the operator's decision, after finding which
   * history is true.
   */
  onRefusal(refuse: (alarm: SignerAlarm) => void): void {
    this.cosignatures?.onRefusal((size, detail) => void this.refused(size, detail, refuse));
  }

  private async refused(size: number, detail: string, refuse: (alarm: SignerAlarm) => void): Promise<void> {
    const alarm: SignerAlarm = {
      kind: 'refused',
      position: size,
      detail:
        `${detail}. The signer has stopped and signs nothing more: the log does not extend what the witness cosigned. ` +
        `Compare the log with the witness's checkpoint (npm run verify-chain), restore the true history, then delete ${this.witness.refusalPath} and restart the service`,
    };
    refuse(alarm);
    await writeFile(this.witness.refusalPath, `${JSON.stringify(alarm)}\n`, { flag: 'wx', mode: 0o600 }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST')
          this.logger.error({ err: error }, `the refusal could not be kept in ${this.witness.refusalPath}`);
      },
    );
  }

  /** A refusal kept from before (a witness refused, and no operator has acted since) stops the signer at start. */
  async stillRefused(): Promise<void> {
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
}

/** A witness file that cannot be trusted stops the signing, as a log that does not verify does. */
function witnessRefusal(error: unknown): never {
  if (!(error instanceof WitnessStateError)) throw error;
  throw new SigningRefused({ kind: 'witness', position: 0, detail: error.message });
}
