import { sign, verify, type KeyObject } from 'node:crypto';
import {
  NoteError,
  SIGNATURE_PREFIX,
  noteKeyId,
  parseVerifierKey,
  splitNote,
  verifierKey,
  type NoteVerifier,
} from './signed-note';

/*
 * Witness cosignatures (c2sp.org/tlog-cosignature, the Ed25519 `cosignature/v1` kind): a note
 * signature line on a checkpoint whose key id is derived with the type byte 0x04, and whose
 * signature is a big-endian 8-byte POSIX timestamp followed by the Ed25519 signature of
 * `cosignature/v1\ntime <timestamp>\n` and the checkpoint's whole body. The witness states with it
 * that, at that time, this was the largest tree it had seen of the log, consistent with every
 * one it saw before. Pure (node:crypto only): the witness, the service and the offline verifier use it.
 */

/** The signature type of Ed25519 cosignatures in key ids and verifier keys. */
export const COSIGNATURE_V1 = 0x04;

/** `<name>+<key id>+<base64(0x04 || public key)>`: how a policy names a witness's key. */
export const cosignerKey = (name: string, publicKey: KeyObject): string => verifierKey(name, publicKey, COSIGNATURE_V1);

export const parseCosignerKey = (vkey: string): NoteVerifier => parseVerifierKey(vkey, COSIGNATURE_V1);

const signedMessage = (text: string, timestamp: number): Buffer =>
  Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`);

/** The cosignature line (ending in a newline) of `name` on the checkpoint `text`, at `timestamp` (POSIX seconds). */
export function cosign(text: string, name: string, privateKey: KeyObject, timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new Error('a cosignature timestamp is a non-negative whole number of seconds');
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestamp));
  const signature = Buffer.concat([
    noteKeyId(name, privateKey, COSIGNATURE_V1),
    time,
    sign(null, signedMessage(text, timestamp), privateKey),
  ]);
  return `${SIGNATURE_PREFIX}${name} ${signature.toString('base64')}\n`;
}

/**
 * The witnesses among `witnesses` that cosigned the note, each with the time it did. Lines of other
 * keys (the log's own signature among them) are ignored; a line of a known witness that does not
 * verify rejects the note, as signed-note says of any known key's.
 */
export function cosignatures(note: string, witnesses: readonly NoteVerifier[]): Map<NoteVerifier, number> {
  const { text, signatures } = splitNote(note);
  const found = new Map<NoteVerifier, number>();
  for (const { name, bytes } of signatures) {
    const witness = witnesses.find((w) => w.name === name && w.id.equals(bytes.subarray(0, 4)));
    if (!witness) continue;
    const timestamp = bytes.length === 4 + 8 + 64 ? bytes.readBigUInt64BE(4) : -1n;
    if (
      timestamp < 0n ||
      timestamp > BigInt(Number.MAX_SAFE_INTEGER) ||
      !verify(null, signedMessage(text, Number(timestamp)), witness.key, bytes.subarray(12))
    ) {
      throw new NoteError(`the cosignature of ${witness.name} does not verify`);
    }
    found.set(witness, Number(timestamp));
  }
  return found;
}
