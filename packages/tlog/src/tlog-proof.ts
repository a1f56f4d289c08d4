import { HASH_BYTES, leafHash, verifyInclusion } from './merkle-tree';
import { NoteError, openNote, parseCheckpoint, type Checkpoint, type NoteVerifier } from './signed-note';

/*
 * c2sp.org/tlog-proof: an offline proof that an entry is in the log, in one text a merchant keeps
 * beside its receipt: the entry's index, its inclusion path, and the signed checkpoint the path
 * leads to. Our entries are the 32-byte chain hashes (the tiles' entry bundles hold the same), so
 * the record's audit hash is all a verifier needs besides the log's verifier key.
 */

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

export interface TlogProof {
  index: number;
  path: Buffer[];
  /** The checkpoint as a signed note, cosignatures included. */
  checkpoint: string;
  extra?: Buffer;
}

const BASE64_HASH = /^[A-Za-z0-9+/]{43}=$/;

export function formatTlogProof({ index, path, checkpoint, extra }: TlogProof): string {
  const lines = [
    TLOG_PROOF_HEADER,
    ...(extra ? [`extra ${extra.toString('base64')}`] : []),
    `index ${index}`,
    ...path.map((hash) => hash.toString('base64')),
  ];
  return `${lines.join('\n')}\n\n${checkpoint}`;
}

/** Parses the text; throws a NoteError saying what is wrong with it. */
export function parseTlogProof(text: string): TlogProof {
  const split = text.indexOf('\n\n');
  if (split < 0) throw new NoteError('a tlog-proof is its proof lines, a blank line, then the checkpoint note');
  const lines = text.slice(0, split).split('\n');
  if (lines[0] !== TLOG_PROOF_HEADER) throw new NoteError(`a tlog-proof begins with the line ${TLOG_PROOF_HEADER}`);
  let at = 1;
  let extra: Buffer | undefined;
  if (lines[at]?.startsWith('extra ')) {
    extra = Buffer.from(lines[at].slice('extra '.length), 'base64');
    if (extra.toString('base64') !== lines[at].slice('extra '.length))
      throw new NoteError('the extra line is not base64');
    at++;
  }
  const index = /^index (0|[1-9]\d*)$/.exec(lines[at] ?? '');
  if (!index || !Number.isSafeInteger(Number(index[1])))
    throw new NoteError(`expected "index <decimal>", found ${JSON.stringify(lines[at] ?? '')}`);
  const path = lines.slice(at + 1).map((line) => {
    if (!BASE64_HASH.test(line))
      throw new NoteError(`a proof line is the base64 of a 32-byte hash, not ${JSON.stringify(line)}`);
    return Buffer.from(line, 'base64');
  });
  return { index: Number(index[1]), path, checkpoint: text.slice(split + 2), extra };
}

/**
 * Checks that `entry` (the 32-byte chain hash, hex) is at the proof's index under a checkpoint the
 * verifier's key signed. Returns that checkpoint; throws a NoteError naming what fails.
 */
export function verifyTlogProof(
  text: string,
  verifier: NoteVerifier,
  entry: string,
): { checkpoint: Checkpoint; index: number; signers: string[] } {
  const proof = parseTlogProof(text);
  const { text: body, signers } = openNote(proof.checkpoint, [verifier]);
  const checkpoint = parseCheckpoint(body);
  if (checkpoint.origin !== verifier.name)
    throw new NoteError(`the checkpoint's origin ${checkpoint.origin} is not the log ${verifier.name}`);
  if (!/^[0-9a-f]+$/.test(entry) || entry.length !== 2 * HASH_BYTES)
    throw new NoteError('the entry is a 32-byte chain hash in lowercase hex');
  if (proof.index >= checkpoint.size)
    throw new NoteError(`index ${proof.index} is not in the checkpoint's tree of ${checkpoint.size} entries`);
  if (!verifyInclusion(proof.index, checkpoint.size, leafHash(entry), proof.path, checkpoint.root)) {
    throw new NoteError(
      `the entry ${entry} is not at index ${proof.index} of the tree of size ${checkpoint.size} the checkpoint signs: the proof does not lead to its root`,
    );
  }
  return { checkpoint, index: proof.index, signers };
}
