import { createPublicKey } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { LogOrigin } from '../platform/event-store/log-origin';
import {
  CHECKPOINT_EVENT_TYPE,
  checkSignature,
  isTreeHeadCheckpoint,
  keyRing,
  type CheckpointData,
  type TreeHead,
  checkpointText,
  signNote,
} from '@crcs/tlog';
import { ChainAlarms } from './chain-alarms';
import { chainTampered } from './chain-tampered';
import { signingKey } from './signing-key';

export const NO_CHECKPOINT =
  'No checkpoint is signed yet: the first comes at most CHECKPOINT_MAX_AGE_S seconds after the first entries';

export type LoggedHead = CheckpointData & TreeHead;

/**
 * The log's signed tree heads as C2SP checkpoint notes. A note is signed on request for a head
 * the signer signed, and only once that head's own signature verifies with the log's key: the key
 * thereby states nothing it has not stated (a head it signed only after checking it extends every
 * earlier one), so no two notes are ever inconsistent, and Ed25519 gives the same bytes every time,
 * which is what lets a witness's cosignature, made on one copy, be served on every other.
 */
@Injectable()
export class CheckpointNotes {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly config: AppConfig,
    private readonly origin: LogOrigin,
    private readonly alarms: ChainAlarms,
  ) {}

  /** The tree head of the last checkpoint in the log: the latest published size. */
  async latest(): Promise<LoggedHead | undefined> {
    const [row] = await this.db.query<{ data: CheckpointData }>(
      'select data from events where event_type = $1 order by position desc limit 1',
      [CHECKPOINT_EVENT_TYPE],
    );
    return row && isTreeHeadCheckpoint(row.data) ? row.data : undefined;
  }

  /** The latest checkpoint's head, for an answer that needs one: a 404 with no signing key, or before the first. */
  async latestSigned(): Promise<LoggedHead> {
    // Without a key no checkpoint ever comes: that is the answer, not "none yet".
    signingKey(this.config);
    const head = await this.latest();
    if (!head) throw new DomainError('NOT_FOUND', NO_CHECKPOINT, HttpStatus.NOT_FOUND);
    return head;
  }

  /** The head as a note signed with the log's key (a 404 when none is configured). */
  async note(head: LoggedHead): Promise<string> {
    const key = signingKey(this.config);
    if (checkSignature(head, keyRing([createPublicKey(key)])) !== 'valid') {
      const detail = `the last checkpoint in the log (${head.checkpoint}, tree size ${head.tree_size}) does not carry the log's valid signature`;
      await this.alarms.raise({ source: 'checkpoint', kind: 'modified', position: head.position, detail });
      throw chainTampered(detail);
    }
    const name = this.origin.name;
    return signNote(
      checkpointText({ origin: name, size: head.tree_size, root: Buffer.from(head.root_hash, 'hex') }),
      name,
      key,
    );
  }
}
