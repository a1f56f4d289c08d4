import { EMPTY_ROOT, verifyConsistency } from './merkle-tree';
import { openNote, parseCheckpoint, splitNote, type Checkpoint, type NoteVerifier } from './signed-note';

/*
 * The witness protocol (c2sp.org/tlog-witness): `POST <prefix>/add-checkpoint` with an `old <size>`
 * line, the consistency proof from that size (one base64 hash a line), a blank line and the
 * checkpoint note; a witness cosigns only a checkpoint consistent with the last one it cosigned
 * for that log. The request's format, and the witness's judgement of one, as pure functions: the
 * service writes requests with them and `npm run witness` judges them.
 */

/** Media type of a 409's body: the tree size the witness last cosigned. */
export const TLOG_SIZE = 'text/x.tlog.size';
/** The spec's bound on proof lines. */
const MAX_PROOF = 63;

export const addCheckpointBody = (old: number, proof: readonly Buffer[], note: string): string =>
  `old ${old}\n${proof.map((hash) => `${hash.toString('base64')}\n`).join('')}\n${note}`;

/** What a witness last cosigned of a log. */
export interface WitnessedTree {
  size: number;
  root: Buffer;
}

/** A witness's refusal: the HTTP status the spec names, and a body saying why. */
export interface Refusal {
  status: 400 | 403 | 404 | 409 | 422;
  contentType: string;
  body: string;
}

const refusal = (status: Refusal['status'], message: string): Refusal => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body: `${message}\n`,
});

/**
 * Judges an add-checkpoint request as the spec orders the checks: `logs` the keys the witness
 * trusts (by origin, their key name), `last` what it cosigned of an origin. Returns the checkpoint
 * to cosign (and to record, with the note's text) or the refusal.
 */
export function judgeCheckpoint(
  body: string,
  logs: readonly NoteVerifier[],
  last: (origin: string) => WitnessedTree | undefined,
): { checkpoint: Checkpoint; text: string } | Refusal {
  const blank = body.indexOf('\n\n');
  const head = blank < 0 ? [] : body.slice(0, blank).split('\n');
  const oldLine = /^old (0|[1-9]\d*)$/.exec(head[0] ?? '');
  if (!oldLine || !Number.isSafeInteger(Number(oldLine[1])))
    return refusal(400, 'the body must start with an "old <size>" line, then the proof lines and a blank line');
  const old = Number(oldLine[1]);
  const proof = head.slice(1).map((line) => Buffer.from(line, 'base64'));
  if (
    proof.length > MAX_PROOF ||
    proof.some((hash, i) => hash.length !== 32 || hash.toString('base64') !== head[i + 1])
  ) {
    return refusal(400, `the consistency proof must be at most ${MAX_PROOF} lines, each the base64 of a 32-byte hash`);
  }
  const note = body.slice(blank + 2);
  let checkpoint: Checkpoint;
  let text: string;
  try {
    text = splitNote(note).text;
    checkpoint = parseCheckpoint(text);
  } catch (error) {
    return refusal(400, `not a checkpoint note: ${(error as Error).message}`);
  }
  const keys = logs.filter((key) => key.name === checkpoint.origin);
  if (keys.length === 0) return refusal(404, `this witness does not witness the log ${checkpoint.origin}`);
  try {
    openNote(note, keys);
  } catch (error) {
    return refusal(
      403,
      `the checkpoint does not carry a valid signature of the key of ${checkpoint.origin}: ${(error as Error).message}`,
    );
  }
  if (old > checkpoint.size)
    return refusal(400, `the old size ${old} is beyond the checkpoint's tree size ${checkpoint.size}`);
  const seen = last(checkpoint.origin) ?? { size: 0, root: EMPTY_ROOT };
  if (old !== seen.size) return { status: 409, contentType: TLOG_SIZE, body: `${seen.size}\n` };
  if (old === checkpoint.size && !checkpoint.root.equals(seen.root)) {
    return refusal(
      409,
      `this witness cosigned another root at tree size ${old} of ${checkpoint.origin}: the log forked or was rewritten`,
    );
  }
  if (old === 0 && proof.length > 0) return refusal(400, 'the consistency proof must be empty when the old size is 0');
  if (old > 0 && old < checkpoint.size && !verifyConsistency(old, checkpoint.size, proof, seen.root, checkpoint.root)) {
    return refusal(
      422,
      `the consistency proof from tree size ${old} to ${checkpoint.size} does not verify against the root this witness cosigned at ${old}: ` +
        `the checkpoint of ${checkpoint.origin} does not extend what this witness cosigned before (history rewritten, rolled back or forked)`,
    );
  }
  return { checkpoint, text };
}
