import { Injectable } from '@nestjs/common';
import { constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppConfig } from '../platform/config/config';
import { parseWitness, type SignedTreeHead } from '@crcs/tlog';

/** How much of the file's end `last` reads: many lines' worth; a line longer than this is corrupt. */
const TAIL_BYTES = 4096;

/** Where the witness file is kept unless CHECKPOINT_WITNESS_FILE says otherwise: in the data folder, with or without DATABASE_URL. */
const WITNESS_FILE = 'checkpoint-witness.ndjson';

/** The witness file cannot be read as the signer left it: torn, corrupt, emptied, unreadable, or gone. */
export class WitnessStateError extends Error {
  static missing(path: string): WitnessStateError {
    return new WitnessStateError(`the witness file ${path} is missing: it was deleted or moved`);
  }
}

/**
 * The witness file: every signed tree head, one NDJSON line each, outside the database. It is the
 * signer's state, what it last signed: the signer extends only its last head, so that an operator
 * who cuts, rolls back or rewrites the log (and deletes its checkpoints) cannot get a second,
 * inconsistent head signed. It exists whenever a signing key does, and is created once, on an
 * empty log, with the signed head of the empty tree; from then on it is required: missing, empty,
 * torn or corrupt, it is a `WitnessStateError`, never a fresh start. Each line is flushed to disk
 * before the signer goes on.
 */
@Injectable()
export class Witness {
  readonly path: string;
  readonly configured: boolean;
  /** Reads and writes of this process, one after another: a read beside an append could see half a line, and call the file torn. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(config: AppConfig) {
    this.path = config.checkpointWitnessFile ?? join(config.dataDir, WITNESS_FILE);
    this.configured = config.checkpointSigningKey !== undefined;
  }

  /** Starts the file with its first head; fails if the file exists (another process made it first). */
  create(head: SignedTreeHead): Promise<void> {
    return this.inTurn(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      await this.write(head, 'wx');
      // The new name must survive a crash too, not only the file's bytes.
      const folder = await open(dirname(this.path), 'r');
      await folder.sync().finally(() => folder.close());
    });
  }

  /** Appends to the file as it is: a file that is gone is never made again here. */
  record(head: SignedTreeHead): Promise<void> {
    return this.inTurn(() =>
      this.write(head, constants.O_WRONLY | constants.O_APPEND).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? WitnessStateError.missing(this.path) : error;
      }),
    );
  }

  /** Every head witnessed, in the order signed; undefined when the file does not exist. */
  async load(): Promise<SignedTreeHead[] | undefined> {
    const text = await this.read();
    return text === undefined ? undefined : this.parse(text);
  }

  /**
   * The last head, read from the file's end alone: the signer checks it before each signing, so a
   * file emptied, torn, overwritten or corrupted at its end while the service runs stops the
   * signing at once (the whole file is checked at start and by each re-verification).
   */
  last(): Promise<SignedTreeHead> {
    return this.inTurn(async () => {
      const file = await open(this.path, 'r').catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT'
          ? WitnessStateError.missing(this.path)
          : new WitnessStateError(`the witness file ${this.path} cannot be read (${error.code ?? error.message})`);
      });
      try {
        const { size } = await file.stat();
        const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
        await file.read(tail, 0, tail.length, size - tail.length);
        const text = tail.toString('utf8');
        const head = this.parse(text.slice(text.lastIndexOf('\n', text.length - 2) + 1)).at(-1);
        if (!head) throw new WitnessStateError(`the witness file ${this.path} is corrupt: it ends in an empty line`);
        return head;
      } finally {
        await file.close();
      }
    });
  }

  /**
   * Where the signer records that a witness refused it (the refusal, and what to do): while the
   * file exists the signer signs nothing, across restarts, until an operator deletes it.
   */
  get refusalPath(): string {
    return `${this.path}.refused`;
  }

  private async read(): Promise<string | undefined> {
    try {
      return await this.inTurn(() => readFile(this.path, 'utf8'));
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (code === 'ENOENT') return undefined;
      throw new WitnessStateError(`the witness file ${this.path} cannot be read (${code ?? message})`);
    }
  }

  private parse(text: string): SignedTreeHead[] {
    if (text === '') throw new WitnessStateError(`the witness file ${this.path} is empty: it was truncated`);
    if (!text.endsWith('\n'))
      throw new WitnessStateError(`the witness file ${this.path} ends in an incomplete line: it was torn or truncated`);
    try {
      return parseWitness(text);
    } catch (error) {
      throw new WitnessStateError(`the witness file ${this.path} is corrupt: ${(error as Error).message}`);
    }
  }

  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const done = this.turn.then(task);
    this.turn = done.catch(() => undefined);
    return done;
  }

  /** Every head witnessed, for a verification; none when there is no signer. */
  async heads(): Promise<SignedTreeHead[]> {
    if (!this.configured) return [];
    const heads = await this.load();
    if (!heads) throw WitnessStateError.missing(this.path);
    return heads;
  }

  /** The file as stored (checked whole, the text read once), for auditors to keep a copy. */
  async text(): Promise<string> {
    const text = await this.read();
    if (text === undefined) throw WitnessStateError.missing(this.path);
    this.parse(text);
    return text;
  }

  private async write(head: SignedTreeHead, flag: number | 'wx'): Promise<void> {
    const file = await open(this.path, flag, 0o600);
    try {
      await file.appendFile(`${JSON.stringify(head)}\n`);
      await file.datasync();
    } finally {
      await file.close();
    }
  }
}
