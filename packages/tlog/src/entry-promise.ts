import { sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from './entry-hash';
import { signerKeyId, type CheckpointSignature } from './checkpoint';

/**
 * A signed promise of an entry (docs/design.md "Tamper evidence against whoever runs the database"),
 * like a Certificate Transparency SCT: the log's key states, when the entry is committed, that the
 * log `origin` holds the entry with hash `entry_hash` at `position`. Whoever holds a promise can
 * check it against any later tree head: an inclusion proof of that very hash at that position must
 * lead to the head's root, so a deletion or change of the entry, even one the whole chain and tree
 * were recomputed for, fails. Pure (node:crypto only): the offline verifier uses it.
 */
export interface EntryPromise {
  /** The log's name, its origin, as its checkpoints name it (LOG_ORIGIN). */
  origin: string;
  position: number;
  entry_hash: string;
  /** When the entry was recorded (its `recorded_at`), ISO 8601. */
  timestamp: string;
  key_id: string;
  /** Ed25519 over the canonical JSON (RFC 8785) of `{entry_hash, origin, position, statement, timestamp}`, base64. */
  signature: string;
}

/** Sets the signed bytes apart from anything else the key signs (tree heads have no `statement`). */
const STATEMENT = 'crcs entry promise v1';

const promiseStatement = ({
  origin,
  position,
  entry_hash: entryHash,
  timestamp,
}: Omit<EntryPromise, 'key_id' | 'signature'>): Buffer =>
  Buffer.from(canonicalJson({ entry_hash: entryHash, origin, position, statement: STATEMENT, timestamp }));

export function signPromise(
  privateKey: KeyObject,
  origin: string,
  entry: { position: number; hash: string; recordedAt: string },
): EntryPromise {
  const promised = {
    origin,
    position: entry.position,
    entry_hash: entry.hash,
    timestamp: entry.recordedAt,
  };
  return {
    ...promised,
    key_id: signerKeyId(privateKey),
    signature: sign(null, promiseStatement(promised), privateKey).toString('base64'),
  };
}

/** `keys` by key id (see `keyRing`). Malformed input counts as an invalid signature, never throws. */
export function checkPromise(promise: EntryPromise, keys: ReadonlyMap<string, KeyObject>): CheckpointSignature {
  const key = keys.get(promise.key_id);
  if (!key) return 'unknown key';
  try {
    return verify(null, promiseStatement(promise), key, Buffer.from(promise.signature, 'base64')) ? 'valid' : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** Whether `v` has a promise's fields and types. */
export function isEntryPromise(v: unknown): v is EntryPromise {
  const p = v as Record<string, unknown>;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof p.origin === 'string' &&
    Number.isSafeInteger(p.position) &&
    typeof p.entry_hash === 'string' &&
    typeof p.timestamp === 'string' &&
    typeof p.key_id === 'string' &&
    typeof p.signature === 'string'
  );
}
