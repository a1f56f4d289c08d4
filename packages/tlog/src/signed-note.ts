import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { sha256 } from './sha256';

/*
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 signatures, and the checkpoints of
 * c2sp.org/tlog-checkpoint written as such notes: the formats transparency tools and witnesses
 * read, checked in the tests against Go's golang.org/x/mod/sumdb/note. Pure (node:crypto only):
 * the offline verifier uses it.
 */

/** The signature type byte of Ed25519 in signed-note. */
const ED25519 = 0x01;
export const SIGNATURE_PREFIX = '\u2014 ';

/** A key name: non-empty, no Unicode space, no plus sign (signed-note "Format"). */
export function isValidKeyName(name: string): boolean {
  // eslint-disable-next-line no-control-regex -- a key name may hold no control character
  return name !== '' && !/[\s+\u0085]/u.test(name) && !/[\u0000-\u001f]/.test(name);
}

/** The 32 bytes of an Ed25519 key, public or (its public half) private. */
export function rawPublicKey(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
}

/**
 * SHA-256(name || 0x0A || type || public key)[:4], as the spec recommends and Go's NewVerifier
 * requires; `type` 0x01 for a note signature, 0x04 for a cosignature (c2sp.org/tlog-cosignature).
 */
export function noteKeyId(name: string, publicKey: KeyObject, type = ED25519): Buffer {
  return sha256(Buffer.from(`${name}\n`), Buffer.of(type), rawPublicKey(publicKey)).subarray(0, 4);
}

/** The verifier key string `<name>+<hex key id>+<base64(type || public key)>` that clients are configured with. */
export function verifierKey(name: string, publicKey: KeyObject, type = ED25519): string {
  return `${name}+${noteKeyId(name, publicKey, type).toString('hex')}+${Buffer.concat([Buffer.of(type), rawPublicKey(publicKey)]).toString('base64')}`;
}

export interface NoteVerifier {
  name: string;
  id: Buffer;
  key: KeyObject;
}

/** Parses a verifier key of the signature `type`; throws saying what is wrong with it. */
export function parseVerifierKey(vkey: string, type = ED25519): NoteVerifier {
  // The base64 key may hold plus signs itself: the name ends at the first, the id at the second.
  const match = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(vkey.trim());
  if (!match || !isValidKeyName(match[1]))
    throw new Error('not a verifier key: expected <name>+<8 hex digits>+<base64 key>');
  const [, name, id, encoded] = match;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length !== 33 || bytes[0] !== type || bytes.toString('base64') !== encoded) {
    throw new Error(
      type === ED25519
        ? 'not an Ed25519 verifier key (type 0x01, 32 bytes)'
        : `not an Ed25519 key of signature type 0x0${type} (32 bytes)`,
    );
  }
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: bytes.subarray(1).toString('base64url') },
    format: 'jwk',
  });
  if (!noteKeyId(name, key, type).equals(Buffer.from(id, 'hex')))
    throw new Error(`the key id ${id} is not the one derived from the name and key`);
  return { name, id: Buffer.from(id, 'hex'), key };
}

/** `text` (ending in a newline) signed by `name`'s Ed25519 `privateKey`. Deterministic, as Ed25519 is. */
export function signNote(text: string, name: string, privateKey: KeyObject): string {
  if (!text.endsWith('\n')) throw new Error('a note text ends in a newline');
  const signature = Buffer.concat([noteKeyId(name, privateKey), sign(null, Buffer.from(text), privateKey)]);
  return `${text}\n${SIGNATURE_PREFIX}${name} ${signature.toString('base64')}\n`;
}

export class NoteError extends Error {}

/**
 * Opens a signed note as signed-note says a verifier must: signatures of unknown keys (another
 * name or id) are ignored, one of a known key that does not verify rejects the whole note, and a
 * note with no verified signature of a known key is rejected. Returns the text and who signed it.
 */
export function openNote(note: string, verifiers: readonly NoteVerifier[]): { text: string; signers: string[] } {
  const { text, signatures } = splitNote(note);
  const signers: string[] = [];
  for (const { name, bytes } of signatures) {
    const known = verifiers.find((v) => v.name === name && v.id.equals(bytes.subarray(0, 4)));
    if (!known) continue;
    if (!verify(null, Buffer.from(text), known.key, bytes.subarray(4)))
      throw new NoteError(`the signature of ${known.name} does not verify`);
    signers.push(known.name);
  }
  if (signers.length === 0) throw new NoteError('no signature of a known key');
  return { text, signers };
}

/** A note's text and its signature lines, each the key name and the decoded key id and signature; throws on a malformed note. */
export function splitNote(note: string): { text: string; signatures: { name: string; bytes: Buffer }[] } {
  // eslint-disable-next-line no-control-regex -- a note may hold no control character but newlines
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note)) throw new NoteError('the note holds a control character');
  if (!note.endsWith('\n')) throw new NoteError('the note does not end in a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('the note has no signature block');
  const signatures = note
    .slice(split + 2, -1)
    .split('\n')
    .map((line) => {
      const match = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/u.exec(line);
      const bytes = match && Buffer.from(match[2], 'base64');
      if (!match || !isValidKeyName(match[1]) || bytes!.length < 5)
        throw new NoteError(`malformed signature line: ${JSON.stringify(line)}`);
      return { name: match[1], bytes: bytes! };
    });
  return { text: note.slice(0, split + 1), signatures };
}

/** A checkpoint's three lines: `origin`, tree size, base64 root (c2sp.org/tlog-checkpoint). */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

export const checkpointText = ({ origin, size, root }: Checkpoint): string =>
  `${origin}\n${size}\n${root.toString('base64')}\n`;

/** Parses a checkpoint's note text; extension lines are allowed and ignored. */
export function parseCheckpoint(text: string): Checkpoint {
  const [origin, size, root, ...rest] = text.split('\n');
  if (rest.length === 0 || rest.at(-1) !== '' || rest.slice(0, -1).some((line) => line === ''))
    throw new NoteError('a checkpoint has three lines (origin, size, root), then only non-empty extension lines');
  if (origin === '') throw new NoteError('the checkpoint has no origin');
  if (!/^(0|[1-9]\d*)$/.test(size) || !Number.isSafeInteger(Number(size)))
    throw new NoteError(`the checkpoint's tree size ${JSON.stringify(size)} is not a decimal number`);
  const hash = Buffer.from(root, 'base64');
  if (hash.length !== 32 || hash.toString('base64') !== root)
    throw new NoteError(`the checkpoint's root ${JSON.stringify(root)} is not the base64 of 32 bytes`);
  return { origin, size: Number(size), root: hash };
}
