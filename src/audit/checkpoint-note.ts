import { createPublicKey } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import type { AppConfig } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import type { LogOrigin } from '../platform/event-store/log-origin';
import type { Database } from '../platform/event-store/sql';
import { CHECKPOINT_EVENT_TYPE, checkSignature, isTreeHeadCheckpoint, keyRing, type CheckpointData } from '../platform/verification/checkpoint';
import { checkpointText, signNote } from '../platform/verification/signed-note';
import type { ChainAlarms } from './chain-alarms';
import { chainTampered } from './chain-tampered';
import { signingKey } from './signing-key';

export const NO_CHECKPOINT = 'No checkpoint is signed yet: the first comes at most CHECKPOINT_MAX_AGE_S seconds after the first entries';

export type TreeHeadData = CheckpointData & { tree_size: number; root_hash: string };

/** The tree head of the last checkpoint in the log: the latest published size. */
export async function latestHead(db: Database): Promise<TreeHeadData | undefined> {
  const [row] = await db.query<{ data: CheckpointData }>('select data from events where event_type = $1 order by position desc limit 1', [CHECKPOINT_EVENT_TYPE]);
  return row && isTreeHeadCheckpoint(row.data) ? row.data : undefined;
}

/**
 * The latest checkpoint as a signed note (the log's signature only), signed on request for the tree
 * head the signer signed, and only once that head's own signature verifies with the log's key: the
 * key thereby states nothing it has not stated (a head it signed only after checking it extends
 * every earlier one), so no two notes are ever inconsistent, and Ed25519 gives the same bytes every
 * time, which is what lets a witness's cosignature, made on one copy, be served on every other.
 */
export async function checkpointNote(db: Database, config: AppConfig, origin: LogOrigin, alarms: ChainAlarms): Promise<{ note: string; head: TreeHeadData }> {
  const key = signingKey(config);
  const head = await latestHead(db);
  if (!head) throw new DomainError('NOT_FOUND', NO_CHECKPOINT, HttpStatus.NOT_FOUND);
  if (checkSignature(head, keyRing([createPublicKey(key)])) !== 'valid') {
    const detail = `the last checkpoint in the log (${head.checkpoint}, tree size ${head.tree_size}) does not carry the log's valid signature`;
    await alarms.raise({ source: 'checkpoint', kind: 'modified', position: head.position, detail });
    throw chainTampered(detail);
  }
  const note = signNote(checkpointText({ origin: origin.name, size: head.tree_size, root: Buffer.from(head.root_hash, 'hex') }), origin.name, key);
  return { note, head };
}
