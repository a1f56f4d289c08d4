import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  CHECKPOINT_EVENT_TYPE,
  checkpointData,
  checkpointStream,
  keyId,
  signTreeHead,
  type CheckpointData,
  type ChainHead,
  type LogEntry,
  GENESIS_HASH,
  canonicalJson,
  entryHash,
  MerkleFrontier,
  leafHash,
} from '@crcs/tlog';

/** A log entry with the metadata a service writes: a schema version and the acting key. */
export interface TestEntry extends LogEntry {
  metadata: { schemaVersion: number; actor: { keyId: string; role: string } };
}

export const newSigningKey = (): KeyObject => generateKeyPairSync('ed25519').privateKey;

/** A signed tree-head checkpoint vouching for the `chainHead.position` entries whose tree `root` is. */
export function treeHeadCheckpoint(
  key: KeyObject,
  checkpoint: number,
  chainHead: ChainHead,
  root: Buffer,
): CheckpointData {
  const head = signTreeHead(key, {
    tree_size: chainHead.position,
    root_hash: root.toString('hex'),
    timestamp: '2026-11-25T12:00:00.000Z',
  });
  return checkpointData(checkpoint, chainHead, head);
}

/** A checkpoint as written before tree heads: the signature covers the entry's position and hash only. */
export function legacyCheckpoint(key: KeyObject, checkpoint: number, { position, hash }: ChainHead): CheckpointData {
  const statement = Buffer.from(canonicalJson({ type: CHECKPOINT_EVENT_TYPE, checkpoint, position, hash }));
  return {
    checkpoint,
    position,
    hash,
    key_id: keyId(createPublicKey(key)),
    signature: sign(null, statement, key).toString('base64'),
  };
}

/**
 * An in-memory chain as the store would write it: entries spread over five streams (so that
 * revisions matter), and, given a key, a signed tree-head checkpoint after every `checkpointEvery` entries.
 */
export function buildChain(
  count: number,
  options: { checkpointEvery?: number; signingKey?: KeyObject } = {},
): TestEntry[] {
  const chain: TestEntry[] = [];
  const revisions = new Map<string, number>();
  let checkpoints = 0;
  let covered = 0;
  const tree = MerkleFrontier.empty();
  const append = (streamId: string, type: string, data: Record<string, unknown>) => {
    const head = chain[chain.length - 1];
    const streamRevision = (revisions.get(streamId) ?? 0) + 1;
    revisions.set(streamId, streamRevision);
    const position = chain.length + 1;
    const entry = {
      position,
      entryId: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
      streamId,
      streamRevision,
      type,
      data,
      metadata: { schemaVersion: 1, actor: { keyId: 'key_test', role: 'merchant' } },
      recordedAt: new Date(Date.UTC(2026, 10, 21, 12, 0, 0, position)).toISOString(),
      prevHash: head?.hash ?? GENESIS_HASH,
    };
    chain.push({ ...entry, hash: entryHash(entry) });
    tree.append(leafHash(chain[chain.length - 1].hash));
  };
  while (chain.length < count) {
    const { checkpointEvery, signingKey } = options;
    if (signingKey && checkpointEvery && chain.length - covered >= checkpointEvery) {
      const head = chain[chain.length - 1];
      checkpoints += 1;
      covered = head.position;
      append(checkpointStream(checkpoints), CHECKPOINT_EVENT_TYPE, {
        ...treeHeadCheckpoint(signingKey, checkpoints, head, tree.root()),
      });
    } else {
      append(`transaction-${chain.length % 5}`, 'TransactionRecorded', { cents: chain.length * 100 + 3 });
    }
  }
  return chain;
}

/** Recomputes every hash from `position` on, relinking each entry to the one before: a careful forger's rewrite. */
export function rehashFrom<E extends LogEntry>(chain: E[], position: number): E[] {
  const out = chain.map((e) => ({ ...e }));
  for (let i = position - 1; i < out.length; i++) {
    if (i > 0) out[i].prevHash = out[i - 1].hash;
    out[i].hash = entryHash(out[i]);
  }
  return out;
}

/** Storage order, as the database reads it. */
export const byPosition = <E extends LogEntry>(chain: E[]) => [...chain].sort((a, b) => a.position - b.position);
