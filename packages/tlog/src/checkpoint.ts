import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { ChainHead } from './log-entry';
import { canonicalJson } from './entry-hash';
import { sha256Hex } from './sha256';

/**
 * Signed checkpoints: every so often the service appends an entry vouching, with an Ed25519
 * signature, for the log before it: since tree heads, for the Merkle tree's root over every entry
 * up to the one just before it (RFC 9162 signed tree head); before, for that entry's hash. A
 * verifier holding the public key then detects even a rewrite that recomputed every hash after a
 * change. Pure (node:crypto only): the offline verifier uses it.
 */
export const CHECKPOINT_EVENT_TYPE = 'ChainCheckpointed';

/** One stream per checkpoint, written at expected revision 0: two processes can never both write checkpoint n. */
export const checkpointStream = (checkpoint: number) => `checkpoint-${checkpoint}`;

/** docs/design.md "Verifiable log": what a tree head states; `timestamp` as ISO 8601. */
export interface TreeHead {
  tree_size: number;
  root_hash: string;
  timestamp: string;
}

export interface SignedTreeHead extends TreeHead {
  /** Which key signed, so that an auditor holding several (after a rotation) picks the right one. */
  key_id: string;
  /** Ed25519 over the canonical JSON (RFC 8785) of `{root_hash, timestamp, tree_size}`, base64. */
  signature: string;
}

/** A checkpoint entry's data. `tree_size` equals `position`; checkpoints written before tree heads lack the tree fields. */
export interface CheckpointData extends Omit<SignedTreeHead, keyof TreeHead>, Partial<TreeHead> {
  /** 1, 2, 3... in chain order. */
  checkpoint: number;
  /** The entry vouched for: always the one right before the checkpoint entry. */
  position: number;
  hash: string;
}

const treeHeadStatement = ({ root_hash: rootHash, timestamp, tree_size: treeSize }: TreeHead): Buffer =>
  Buffer.from(canonicalJson({ root_hash: rootHash, timestamp, tree_size: treeSize }));

/** Before tree heads: the type string separated the statement from anything else the key might sign. */
const chainHeadStatement = ({ checkpoint, position, hash }: CheckpointData): Buffer =>
  Buffer.from(canonicalJson({ type: CHECKPOINT_EVENT_TYPE, checkpoint, position, hash }));

export function signTreeHead(privateKey: KeyObject, head: TreeHead): SignedTreeHead {
  const signature = sign(null, treeHeadStatement(head), privateKey).toString('base64');
  return { ...head, key_id: signerKeyId(privateKey), signature };
}

export function checkpointData(checkpoint: number, chainHead: ChainHead, head: SignedTreeHead): CheckpointData {
  return { checkpoint, position: chainHead.position, hash: chainHead.hash, ...head };
}

export const isTreeHeadCheckpoint = (data: CheckpointData): data is CheckpointData & TreeHead =>
  data.root_hash !== undefined;

export type CheckpointSignature = 'valid' | 'invalid' | 'unknown key';

/** `keys` by key id. Malformed data (a tampered entry or witness line) counts as an invalid signature, never throws. */
export function checkSignature(
  signed: SignedTreeHead | CheckpointData,
  keys: ReadonlyMap<string, KeyObject>,
): CheckpointSignature {
  const key = keys.get(signed.key_id);
  if (!key) return 'unknown key';
  try {
    const statement =
      'checkpoint' in signed && !isTreeHeadCheckpoint(signed) ? chainHeadStatement(signed) : treeHeadStatement(signed);
    return verify(null, statement, key, Buffer.from(signed.signature, 'base64')) ? 'valid' : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** The first 16 hex digits of the SHA-256 of the public key (SubjectPublicKeyInfo, DER). */
export function keyId(publicKey: KeyObject): string {
  return sha256Hex(publicKey.export({ format: 'der', type: 'spki' })).slice(0, 16);
}

const signerKeyIds = new WeakMap<KeyObject, string>();

/**
 * The key id of a private key's public half, derived once per key object and kept: a process signs
 * with one key, its configuration's, and every write's entry promise carries the id, so deriving the
 * public key and its DER again for each sale was work per sale for a constant.
 */
export function signerKeyId(privateKey: KeyObject): string {
  let id = signerKeyIds.get(privateKey);
  if (id === undefined) signerKeyIds.set(privateKey, (id = keyId(createPublicKey(privateKey))));
  return id;
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

/**
 * The witness file (NDJSON, one signed tree head a line), as the signer appends it. Throws naming
 * the first line that is not a tree head.
 */
export function parseWitness(text: string): SignedTreeHead[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), number: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      let head: unknown;
      try {
        head = JSON.parse(line);
      } catch {
        throw new Error(`witness line ${number} is not JSON`);
      }
      if (!isSignedTreeHead(head)) throw new Error(`witness line ${number} is not a signed tree head`);
      return head;
    });
}

function isSignedTreeHead(v: unknown): v is SignedTreeHead {
  const h = v as Record<string, unknown>;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isSafeInteger(h.tree_size) &&
    (h.tree_size as number) >= 0 &&
    typeof h.root_hash === 'string' &&
    /^[0-9a-f]{64}$/.test(h.root_hash) &&
    typeof h.timestamp === 'string' &&
    typeof h.key_id === 'string' &&
    typeof h.signature === 'string'
  );
}
