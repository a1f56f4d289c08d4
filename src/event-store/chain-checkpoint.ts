import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { ChainHead } from './event-store.port';
import { canonicalJson } from './hash-chain';

/**
 * Signed checkpoints: every so often the service appends an entry vouching, with an Ed25519
 * signature, for the hash of the entry just before it. A verifier holding the public key then
 * detects even a rewrite that recomputed every hash after a change: the rewritten chain no longer
 * has the signed hash where the checkpoint says. Pure (node:crypto only): the offline verifier uses it.
 */
export const CHECKPOINT_EVENT_TYPE = 'ChainCheckpointed';

/** One stream per checkpoint, written at expected revision 0: two processes can never both write checkpoint n. */
export const checkpointStream = (checkpoint: number) => `checkpoint-${checkpoint}`;

export interface CheckpointData {
  /** 1, 2, 3... in chain order. */
  checkpoint: number;
  /** The entry vouched for: always the one right before the checkpoint entry. */
  position: number;
  hash: string;
  /** Which key signed, so that an auditor holding several (after a rotation) picks the right one. */
  key_id: string;
  /** Ed25519 over `signedStatement`, base64. */
  signature: string;
}

/** What is signed: the type string separates it from anything else the key might ever sign. */
function signedStatement(checkpoint: number, position: number, hash: string): Buffer {
  return Buffer.from(canonicalJson({ type: CHECKPOINT_EVENT_TYPE, checkpoint, position, hash }));
}

export function signCheckpoint(privateKey: KeyObject, checkpoint: number, head: ChainHead): CheckpointData {
  const signature = sign(null, signedStatement(checkpoint, head.position, head.hash), privateKey).toString('base64');
  return { checkpoint, position: head.position, hash: head.hash, key_id: keyId(createPublicKey(privateKey)), signature };
}

export type CheckpointSignature = 'valid' | 'invalid' | 'unknown key';

/** `keys` by key id. Malformed data (a tampered entry) counts as an invalid signature, never throws. */
export function checkCheckpointSignature(data: CheckpointData, keys: ReadonlyMap<string, KeyObject>): CheckpointSignature {
  const key = keys.get(data.key_id);
  if (!key) return 'unknown key';
  try {
    const statement = signedStatement(data.checkpoint, data.position, data.hash);
    return verify(null, statement, key, Buffer.from(data.signature, 'base64')) ? 'valid' : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** The first 16 hex digits of the SHA-256 of the public key (SubjectPublicKeyInfo, DER). */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest('hex').slice(0, 16);
}

/** Keys by id, the shape `checkCheckpointSignature` takes. */
export const keyRing = (publicKeys: readonly KeyObject[]): ReadonlyMap<string, KeyObject> =>
  new Map(publicKeys.map((key) => [keyId(key), key]));

/** An Ed25519 private key as PEM, or as base64 of its PKCS#8 DER (one line, for an environment variable). */
export function parsePrivateKey(text: string): KeyObject {
  const key = text.trim().startsWith('-----BEGIN')
    ? createPrivateKey(text)
    : createPrivateKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'pkcs8' });
  return ed25519(key);
}

/** An Ed25519 public key as PEM, or as base64 of its SubjectPublicKeyInfo DER. */
export function parsePublicKey(text: string): KeyObject {
  const key = text.trim().startsWith('-----BEGIN')
    ? createPublicKey(text)
    : createPublicKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'spki' });
  return ed25519(key);
}

function ed25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`is a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}
