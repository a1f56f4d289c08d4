import { Injectable } from '@nestjs/common';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppConfig } from '../platform/config/config';
import { parseWitness, type SignedTreeHead } from '../platform/verification/checkpoint';

/**
 * The witness file (`CHECKPOINT_WITNESS_FILE`): every signed tree head, one NDJSON line each,
 * outside the database, so that an attacker who rewrites the log and deletes its checkpoints
 * still leaves heads the log no longer extends. Written after the head's checkpoint commits and
 * flushed to disk; none configured, nothing is written and nothing read.
 */
@Injectable()
export class Witness {
  private readonly path: string | undefined;

  constructor(config: AppConfig) {
    this.path = config.checkpointWitnessFile;
  }

  get configured(): boolean {
    return this.path !== undefined;
  }

  async record(head: SignedTreeHead): Promise<void> {
    if (!this.path) return;
    await mkdir(dirname(this.path), { recursive: true });
    const file = await open(this.path, 'a', 0o600);
    try {
      await file.appendFile(`${JSON.stringify(head)}\n`);
      await file.datasync();
    } finally {
      await file.close();
    }
  }

  /** Every head witnessed; none when no witness is configured or nothing was signed yet. */
  async heads(): Promise<SignedTreeHead[]> {
    if (!this.path) return [];
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    return parseWitness(text);
  }

  async lastHead(): Promise<SignedTreeHead | undefined> {
    return (await this.heads()).at(-1);
  }
}
