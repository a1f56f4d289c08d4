#!/usr/bin/env node
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  checkSignature,
  keyRing,
  parsePrivateKey,
  parsePublicKey,
  parseWitness,
  type SignedTreeHead,
} from '../checkpoint';
import { writerKey } from '../writer-mac';
import { checkPromise, isEntryPromise, type EntryPromise } from '../entry-promise';
import { checkKeptPromises, parseKeptPromises, type BrokenPromise } from '../kept-promises';
import { ChainVerifier, type ChainVerification } from '../chain-verifier';
import { UnreadableLineError, verifyExport } from '../export-verification';
import { leafHash, verifyConsistency, verifyInclusion } from '../merkle-tree';
import {
  NoteError,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  type Checkpoint,
  type NoteVerifier,
} from '../signed-note';
import { parseTlogProof, verifyTlogProof } from '../tlog-proof';
import { TiledLogError, verifyTiledLog, type ExportedHashes } from '../tiled-log';
import { parseTlogPolicy, policyCosignatures, type TlogPolicy } from '../tlog-policy';

const USAGE = [
  'usage: verify-chain <export.ndjson | -> [--public-key <key.pem>]... [--witness <witness.ndjson>] [--signing-key <private-key.pem>]',
  '       verify-chain inclusion <proof.json> --head <tree-head.json> [--public-key <key.pem>]...',
  '       verify-chain inclusion <audit-receipt.json> [--head <tree-head.json>] [--public-key <key.pem>]...',
  '       verify-chain consistency <proof.json> --head <first-head.json> --head <second-head.json> [--public-key <key.pem>]...',
  '       verify-chain promise <promise.json | write-answer.json | audit-receipt.json> --proof <proof.json | audit-receipt.json> [--head <tree-head.json>] [--public-key <key.pem>]...',
  '       verify-chain checkpoint <checkpoint-note> --vkey <vkey-file> | --policy <tlog-policy-file>',
  '       verify-chain tlog-proof <audit-receipt.json | proof.tlog-proof --entry <audit hash>> --vkey <vkey-file> | --policy <tlog-policy-file>',
  '       verify-chain tiles <log URL, e.g. https://host/api/v1/log> --vkey <vkey-file> [--checkpoint <kept-checkpoint-note>]... [--export <kept audit-log export>]   (key in CRCS_API_KEY unless the log is public)',
  '       verify-chain promises <kept-answers.ndjson> --log <log URL> --vkey <vkey-file> | --policy <tlog-policy-file> [--grace <seconds>]   (key in CRCS_API_KEY unless the log is public)',
].join('\n');

class InputError extends Error {}

/** From this size (about 10,000 entries) an export is read and hashed on worker threads. */
const PARALLEL_FROM_BYTES = 16 * 1024 * 1024;

/** `npm run` works in the package's folder: a path is the caller's, relative to where npm was run (INIT_CWD). */
const fromCaller = (path: string): string => resolve(process.env.INIT_CWD ?? '.', path);

/**
 * The auditor's verifier: checks an export of `GET /admin/audit-logs/export` with no database and
 * no service, only the pure hash-chain modules, reading the file a line at a time. Each
 * `--public-key` (PEM, or base64 of the DER, as `GET /admin/checkpoint-key` gives it) is a key
 * whose checkpoint signatures are accepted; give the ones kept from before, not fresh from the
 * service under audit.
 *
 * `--witness`: the witness file of signed tree heads, kept outside the database; the log must
 * extend every one. `--signing-key`: the checkpoint signing key itself (the operator's, or an
 * auditor's the operator trusts with it), from which the writer authentication key is derived:
 * every entry must then carry a valid writer authenticator, so a row inserted or rewritten by SQL fails. `inclusion` and `consistency` check a proof from `GET /admin/audit/…-proof`
 * against tree heads the auditor kept (`GET /admin/audit/tree-head`), signatures included when
 * keys are given. `inclusion` also takes an audit receipt (`GET /transaction/{id}/receipt?format=audit`),
 * which carries its proof and head: its head proves something only once its signature is checked,
 * and its promise (below) too. `promise` checks a signed promise of an entry (kept from a write's
 * answer or a receipt) against a later tree head: the inclusion proof of the promised position
 * (`GET /admin/audit/inclusion-proof?position=P&tree_size=N`, or a fresh audit receipt) must be of
 * the promised hash and lead to the head's root, so an entry deleted or changed since fails.
 * `tlog-proof` checks a c2sp.org/tlog-proof (an audit receipt's `tlog_proof`, or the receipt itself,
 * which also gives the entry and its position) against the log's verifier key (`GET /log/vkey`).
 * A CSV export of transactions is checked by the service's own `npm run verify-export`
 * (scripts/verify-export.ts): its rows are the service's transaction rules applied to the log.
 * `promises` checks a file of kept write answers (one a line: what a POS back office keeps of each
 * write) in bulk against the log's tiles under its latest checkpoint (with `--policy`, one that
 * meets its quorum): each promise's signature and origin, and its hash at its position; a promise
 * past the checkpoint is pending for `--grace` seconds (default 300), then broken.
 *
 * Prints the result as JSON on stdout and a summary on stderr. Exit status: 0 when no break was
 * found (the proof holds), 1 when any was (a bad signature included), 2 when the input could not be read.
 */
async function main(args: string[]): Promise<number> {
  if (args[0] === 'checkpoint' || args[0] === 'tiles' || args[0] === 'tlog-proof')
    return checkC2sp(args[0], args.slice(1));
  if (args[0] === 'export')
    throw new InputError(
      "a CSV export is checked against the service's own transaction rules, which this package does not hold: run `npm run verify-export -- <transactions.csv> --log <export.ndjson>` in the service's folder",
    );
  if (args[0] === 'promises') return verifyKeptPromises(args.slice(1));
  const { file, keyFiles, witnessFile, signingKeyFile, heads, proofKind, proofFile } = parseArgs(args);
  const keys = keyFiles.length > 0 ? keyRing(keyFiles.map(readPublicKey)) : undefined;
  if (proofKind === 'promise') return checkProof('promise', proofFile!, heads, keys, readJson(file, promiseIn));
  if (proofKind) return checkProof(proofKind, file, heads, keys);
  const witness = witnessFile === undefined ? undefined : readJson(witnessFile, parseWitness);
  const signingKey = signingKeyFile === undefined ? undefined : readJson(signingKeyFile, parsePrivateKey);
  const verifier = new ChainVerifier({ checkpointKeys: keys, witness, writerKey: signingKey && writerKey(signingKey) });
  await pushExport(file, verifier);
  const result = verifier.result();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write(`${summary(result, signingKey !== undefined)}\n`);
  return result.break_count === 0 ? 0 : 1;
}

/** The entries of an export (a file, or `-` for standard input), read and hashed, pushed into the verifier in the file's order. */
async function pushExport(file: string, verifier: Pick<ChainVerifier, 'push'>): Promise<void> {
  // Read in the verifier's batches: a chunk is then cut once, not gathered from sixteen.
  const input = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 });
  input.on('error', () => undefined); // reported by the iteration below
  try {
    await verifyExport(
      input,
      verifier,
      file === '-' || (statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= PARALLEL_FROM_BYTES,
    );
  } catch (error) {
    throw error instanceof UnreadableLineError
      ? new InputError(error.message)
      : new InputError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

type ProofKind = 'inclusion' | 'consistency' | 'promise';

function parseArgs(args: string[]): {
  file: string;
  keyFiles: string[];
  witnessFile?: string;
  signingKeyFile?: string;
  heads: string[];
  proofKind?: ProofKind;
  proofFile?: string;
} {
  const proofKind = args[0] === 'inclusion' || args[0] === 'consistency' || args[0] === 'promise' ? args[0] : undefined;
  let proofFile: string | undefined;
  const files: string[] = [];
  const keyFiles: string[] = [];
  const heads: string[] = [];
  let witnessFile: string | undefined;
  let signingKeyFile: string | undefined;
  for (let i = proofKind ? 1 : 0; i < args.length; i++) {
    if (args[i] === '--public-key' && i + 1 < args.length) keyFiles.push(fromCaller(args[++i]));
    else if (args[i] === '--witness' && i + 1 < args.length && !proofKind) witnessFile = fromCaller(args[++i]);
    else if (args[i] === '--signing-key' && i + 1 < args.length && !proofKind) signingKeyFile = fromCaller(args[++i]);
    else if (args[i] === '--head' && i + 1 < args.length && proofKind) heads.push(fromCaller(args[++i]));
    else if (args[i] === '--proof' && i + 1 < args.length && proofKind === 'promise') proofFile = fromCaller(args[++i]);
    else if (args[i] === '-' && !proofKind) files.push('-');
    else if (!args[i].startsWith('-')) files.push(fromCaller(args[i]));
    else throw new InputError(`unknown option ${args[i]}\n${USAGE}`);
  }
  // An inclusion proof may come as an audit receipt, which carries its head: then --head is optional.
  const headsAllowed = proofKind === 'inclusion' || proofKind === 'promise' ? [0, 1] : proofKind ? [2] : [0];
  if (
    files.length !== 1 ||
    !headsAllowed.includes(heads.length) ||
    (proofKind === 'promise') !== (proofFile !== undefined)
  )
    throw new InputError(USAGE);
  return { file: files[0], keyFiles, witnessFile, signingKeyFile, heads, proofKind, proofFile };
}

/** A promise as kept: on its own, or in the write's answer or the audit receipt that carried it. */
function promiseIn(text: string): EntryPromise {
  const given = JSON.parse(text) as Record<string, unknown>;
  const promise = isEntryPromise(given) ? given : given.promise;
  if (!isEntryPromise(promise)) throw new Error('holds no entry promise');
  return promise;
}

function readJson<T>(path: string, parse: (text: string) => T): T {
  try {
    return parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError(`${path}: ${(error as Error).message}`);
  }
}

/**
 * A proof against tree heads the auditor holds: each head's signature (given keys), its size and
 * root, then the proof itself; for `promise`, an inclusion proof that must be of the promised entry.
 */
function checkProof(
  kind: ProofKind,
  proofFile: string,
  headFiles: string[],
  keys: ReturnType<typeof keyRing> | undefined,
  kept?: EntryPromise,
): number {
  const given = readJson(proofFile, JSON.parse) as Record<string, unknown>;
  // `GET /transaction/{id}/receipt?format=audit` answers the proof with the head it leads to.
  const receipt = kind !== 'consistency' && typeof given.inclusion_proof === 'object' && given.inclusion_proof !== null;
  const proof = (receipt ? given.inclusion_proof : given) as Record<string, unknown>;
  const headTexts =
    headFiles.length > 0 || !receipt
      ? headFiles.map((f) => readJson(f, (text) => text))
      : [JSON.stringify(given.tree_head)];
  if (headTexts.length === 0) throw new InputError(USAGE);
  const headNames = headFiles.length > 0 ? headFiles : [`the tree_head of ${proofFile}`];
  // An unsigned head (GET /admin/audit/tree-head before any is signed) is taken only when no key is given.
  const heads = headTexts.map(
    (text) => parseWitness(text.replace(/"(signature|key_id)":null/g, '"$1":""'))[0] as SignedTreeHead | undefined,
  );
  const problems: string[] = [];
  heads.forEach((head, i) => {
    if (!head) problems.push(`${headNames[i]} is not a tree head`);
    else if (keys && checkSignature(head, keys) !== 'valid')
      problems.push(`the tree head of size ${head.tree_size} does not carry a valid signature of the keys given`);
  });
  const hex = (v: unknown) => Buffer.from(typeof v === 'string' ? v : '', 'hex');
  const path = (v: unknown) => (Array.isArray(v) ? v.map(hex) : []);
  let holds = false;
  // A receipt's proof must be of the receipt's own entry: a proof of whatever entry now sits at its position proves nothing about it.
  const record = receipt ? (given.receipt as Record<string, unknown> | undefined) : undefined;
  if (
    record &&
    (proof.entry_hash !== record.auditHash ||
      proof.position !== record.chain_position ||
      proof.leaf_index !== Number(record.chain_position) - 1)
  ) {
    problems.push(
      `the proof is of the entry at position ${String(proof.position)} with hash ${String(proof.entry_hash)}, but the receipt's record is the entry at position ${String(record.chain_position)} with audit hash ${String(record.auditHash)}`,
    );
  }
  // The promise kept, or the one the receipt carries, each for the entry the proof is of.
  const promises: [string, EntryPromise][] = kept
    ? [['the promise', kept]]
    : isEntryPromise(given.promise)
      ? [["the receipt's promise", given.promise]]
      : [];
  for (const [name, promise] of promises) {
    const signature = keys ? checkPromise(promise, keys) : 'valid';
    if (signature !== 'valid')
      problems.push(
        `${name} ${signature === 'invalid' ? 'has an invalid signature' : `is signed by key ${promise.key_id}, which is not among the keys given`}`,
      );
    if (proof.position !== promise.position || proof.entry_hash !== promise.entry_hash) {
      problems.push(
        `${name} is of the entry at position ${promise.position} with hash ${promise.entry_hash}, but the log's entry at position ${String(proof.position)} has hash ${String(proof.entry_hash)}: the promised entry was deleted or changed`,
      );
    }
  }
  if (problems.length === 0 && kind !== 'consistency') {
    const [head] = heads as SignedTreeHead[];
    if (proof.tree_size !== head.tree_size)
      problems.push(`the proof is for a tree of ${String(proof.tree_size)} entries, the head for ${head.tree_size}`);
    const leaf = leafHash(String(proof.entry_hash));
    if (!leaf.equals(hex(proof.leaf_hash))) problems.push('leaf_hash is not the hash of entry_hash');
    holds = verifyInclusion(
      Number(proof.leaf_index),
      head.tree_size,
      leaf,
      path(proof.audit_path),
      hex(head.root_hash),
    );
  } else if (problems.length === 0) {
    const [first, second] = heads as SignedTreeHead[];
    if (proof.first !== first.tree_size || proof.second !== second.tree_size)
      problems.push('the proof is not between the sizes of the two heads');
    holds = verifyConsistency(
      first.tree_size,
      second.tree_size,
      path(proof.proof),
      hex(first.root_hash),
      hex(second.root_hash),
    );
  }
  if (problems.length === 0 && !holds)
    problems.push(`the ${kind} proof does not verify against the tree head${heads.length > 1 ? 's' : ''}`);
  const ok = problems.length === 0;
  process.stdout.write(
    `${JSON.stringify({ kind, holds: ok, problems, signatures_checked: keys !== undefined }, null, 2)}\n`,
  );
  process.stderr.write(ok ? `OK: the ${kind} proof holds\n` : `FAILED: ${problems.join('; ')}\n`);
  if (ok && !keys)
    process.stderr.write(
      `WARNING: no --public-key given: tree head${promises.length > 0 ? ' and promise' : ''} signatures were NOT checked\n`,
    );
  return ok ? 0 : 1;
}

/**
 * The C2SP formats (docs/design.md "Transparency in the standard formats"): `checkpoint` opens a kept
 * checkpoint note with the verifier key; `tiles` verifies the whole log from its checkpoint, tiles
 * and entry bundles, and that it extends every checkpoint kept from before.
 */
async function checkC2sp(kind: 'checkpoint' | 'tiles' | 'tlog-proof', args: string[]): Promise<number> {
  const positional: string[] = [];
  const keptFiles: string[] = [];
  let vkeyFile: string | undefined;
  let entry: string | undefined;
  let policyFile: string | undefined;
  let exportFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--vkey' && i + 1 < args.length) vkeyFile = fromCaller(args[++i]);
    else if (args[i] === '--policy' && i + 1 < args.length && kind !== 'tiles') policyFile = fromCaller(args[++i]);
    else if (args[i] === '--checkpoint' && i + 1 < args.length && kind === 'tiles')
      keptFiles.push(fromCaller(args[++i]));
    else if (args[i] === '--export' && i + 1 < args.length && kind === 'tiles') exportFile = fromCaller(args[++i]);
    else if (args[i] === '--entry' && i + 1 < args.length && kind === 'tlog-proof') entry = args[++i].toLowerCase();
    else if (!args[i].startsWith('-')) positional.push(args[i]);
    else throw new InputError(`unknown option ${args[i]}\n${USAGE}`);
  }
  if (positional.length !== 1 || (vkeyFile === undefined) === (policyFile === undefined)) throw new InputError(USAGE);
  const policy = policyFile === undefined ? undefined : readJson(policyFile, parseTlogPolicy);
  const verifiers = policy ? policy.logs.map((log) => log.key) : [readJson(vkeyFile!, parseVerifierKey)];
  if (verifiers.length === 0) throw new InputError(`${policyFile}: the policy names no log (a "log <vkey>" line)`);
  const openKept = (file: string): Checkpoint => {
    const note = readJson(file, (text) => text);
    return parseCheckpoint(openNote(note, verifiers).text);
  };
  let result: Record<string, unknown>;
  try {
    if (kind === 'tiles') {
      const exported = exportFile === undefined ? undefined : await keptExport(exportFile);
      result = { ...(await verifyTiledLog(reader(positional[0]), verifiers[0], keptFiles.map(openKept), exported)) };
    } else if (kind === 'tlog-proof')
      result = tlogProofResult(
        readJson(fromCaller(positional[0]), (text) => tlogProofIn(text, entry)),
        verifiers[0],
        policy,
      );
    else {
      const note = readJson(fromCaller(positional[0]), (text) => text);
      result = checkpointResult(parseCheckpoint(openNote(note, verifiers).text));
      if (policy) result = { ...result, ...checkQuorum(note, policy) };
    }
  } catch (error) {
    if (!(error instanceof NoteError || error instanceof TiledLogError)) throw error;
    process.stdout.write(`${JSON.stringify({ kind, holds: false, problems: [error.message] }, null, 2)}\n`);
    process.stderr.write(`FAILED: ${error.message}\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify({ kind, holds: true, ...result }, null, 2)}\n`);
  process.stderr.write(
    kind === 'checkpoint'
      ? `OK: the checkpoint of ${String(result.origin)} at tree size ${String(result.tree_size)} carries the log's valid signature${policy ? `, and cosignatures meeting the policy's quorum (${policy.quorum})` : ''}\n`
      : kind === 'tiles'
        ? `OK: ${String(result.tree_size)} entries of ${verifiers[0].name} give its signed root, every tile checked, consistent with ${keptFiles.length} kept checkpoints${exportFile === undefined ? '' : ` and the ${String(result.export_entries_compared)} entries of your export it covers`}\n`
        : `OK: the entry ${String(result.entry)} is at position ${String(result.position)} of ${verifiers[0].name}, under its signed checkpoint of tree size ${String(result.tree_size)}${policy ? `, cosigned to the policy's quorum (${policy.quorum})` : ''}\n`,
  );
  return 0;
}

interface TlogProofInput {
  proof: string;
  entry: string;
  /** From an audit receipt: where the record says its entry is, which the proof's index must match. */
  position?: number;
}

/** A .tlog-proof file with the entry given, or an audit receipt, which carries both. */
function tlogProofIn(text: string, entry: string | undefined): TlogProofInput {
  if (!text.trimStart().startsWith('{')) {
    if (entry === undefined) throw new Error("a .tlog-proof file needs --entry <the record's auditHash>");
    return { proof: text, entry };
  }
  const answer = JSON.parse(text) as {
    tlog_proof?: unknown;
    receipt?: { auditHash?: unknown; chain_position?: unknown };
  };
  const { auditHash, chain_position: chainPosition } = answer.receipt ?? {};
  if (typeof answer.tlog_proof !== 'string' || typeof auditHash !== 'string' || typeof chainPosition !== 'number') {
    throw new Error(
      'not an audit receipt with a tlog_proof (null until the entry is under a signed checkpoint: fetch the receipt again)',
    );
  }
  if (entry !== undefined && entry !== auditHash)
    throw new Error(`--entry ${entry} is not the receipt's auditHash ${auditHash}`);
  return { proof: answer.tlog_proof, entry: auditHash, position: chainPosition };
}

/** With a policy, the proof's checkpoint must also carry its witnesses' quorum. */
function tlogProofResult(
  { proof, entry, position }: TlogProofInput,
  verifier: NoteVerifier,
  policy: TlogPolicy | undefined,
): Record<string, unknown> {
  const { checkpoint, index, signers } = verifyTlogProof(proof, verifier, entry);
  if (position !== undefined && index !== position - 1)
    throw new NoteError(
      `the proof is for index ${index}, not the receipt's position ${position} (index ${position - 1})`,
    );
  return {
    entry,
    position: index + 1,
    ...checkpointResult(checkpoint),
    signers,
    ...(policy && checkQuorum(parseTlogProof(proof).checkpoint, policy)),
  };
}

/** The policy's witnesses that cosigned the note, and whether they meet its quorum; a `NoteError` when they do not. */
function checkQuorum(
  note: string,
  policy: TlogPolicy,
): { cosigned_by: { witness: string; timestamp: string }[]; quorum: string } {
  const { cosigned, met } = policyCosignatures(note, policy);
  if (!met) {
    const names =
      cosigned.size === 0 ? 'none of its witnesses' : `only ${[...cosigned.keys()].map((w) => w.name).join(', ')}`;
    throw new NoteError(`the checkpoint is cosigned by ${names}: the policy's quorum (${policy.quorum}) is not met`);
  }
  return {
    cosigned_by: [...cosigned].map(([w, timestamp]) => ({
      witness: w.name,
      timestamp: new Date(timestamp * 1000).toISOString(),
    })),
    quorum: policy.quorum,
  };
}

const checkpointResult = ({ origin, size, root }: Checkpoint) => ({
  origin,
  tree_size: size,
  root_hash: root.toString('hex'),
});

/** Reads below a log's URL; a key from CRCS_API_KEY for a log that is not public. */
function reader(prefix: string): (path: string) => Promise<Buffer> {
  const key = process.env.CRCS_API_KEY;
  return async (path) => {
    const url = `${prefix.replace(/\/+$/, '')}/${path}`;
    const response = await fetch(url, { headers: key ? { 'x-api-key': key } : {} }).catch((error: Error) => {
      throw new InputError(`cannot read ${url}: ${error.message}`);
    });
    if (response.status !== 200)
      throw new TiledLogError(`${url} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    return Buffer.from(await response.arrayBuffer());
  };
}

/**
 * The chain hashes of an export kept from before, for `tiles --export`, in one read of the file:
 * each entry's hash is kept as the verifier takes it, and the export must verify on its own, which
 * ties each hash to its entry's content.
 */
async function keptExport(file: string): Promise<ExportedHashes> {
  const verifier = new ChainVerifier();
  let first: number | undefined;
  const hashes: Buffer[] = [];
  await pushExport(file, {
    push: (entry) => {
      first ??= entry.position;
      hashes.push(Buffer.from(entry.hash, 'hex'));
      verifier.push(entry);
    },
  });
  const { break_count: breakCount } = verifier.result();
  if (breakCount > 0)
    throw new InputError(
      `--export ${file} does not verify on its own (${breakCount === 1 ? 'a break' : `${breakCount} breaks`}): npm run verify-chain -- ${file} shows where`,
    );
  return { first: first ?? 1, hashes: Buffer.concat(hashes) };
}

function readPublicKey(path: string) {
  try {
    return parsePublicKey(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError(`--public-key ${path}: not an Ed25519 public key (${(error as Error).message})`);
  }
}

/** Seconds a promise may stay beyond the latest cosigned checkpoint before `promises` calls it broken. */
const PROMISE_GRACE_S = 300;

async function verifyKeptPromises(args: string[]): Promise<number> {
  const files: string[] = [];
  let logUrl: string | undefined;
  let vkeyFile: string | undefined;
  let policyFile: string | undefined;
  let graceS = PROMISE_GRACE_S;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--log' && i + 1 < args.length) logUrl = args[++i];
    else if (args[i] === '--vkey' && i + 1 < args.length) vkeyFile = fromCaller(args[++i]);
    else if (args[i] === '--policy' && i + 1 < args.length) policyFile = fromCaller(args[++i]);
    else if (args[i] === '--grace' && i + 1 < args.length) {
      graceS = Number(args[++i]);
      if (!Number.isSafeInteger(graceS) || graceS < 0)
        throw new InputError(`--grace ${args[i]}: not a number of seconds`);
    } else if (!args[i].startsWith('-')) files.push(fromCaller(args[i]));
    else throw new InputError(`unknown option ${args[i]}\n${USAGE}`);
  }
  if (files.length !== 1 || logUrl === undefined || (vkeyFile === undefined) === (policyFile === undefined))
    throw new InputError(USAGE);
  const promises = readJson(files[0], parseKeptPromises);
  const policy = policyFile === undefined ? undefined : readJson(policyFile, parseTlogPolicy);
  const verifier = policy ? policy.logs[0]?.key : readJson(vkeyFile!, parseVerifierKey);
  if (!verifier) throw new InputError(`${policyFile}: the policy names no log (a "log <vkey>" line)`);
  // The checkpoint read once: the tiles are checked against the very note whose quorum was checked.
  const read = reader(logUrl);
  const note = (await read('checkpoint')).toString('utf8');
  const hashes = new Map<number, string>();
  const wanted = new Set(promises.map((p) => p.position));
  let result: Record<string, unknown>;
  try {
    const cosigned = policy && checkQuorum(note, policy);
    const log = await verifyTiledLog(
      (path) => (path === 'checkpoint' ? Promise.resolve(Buffer.from(note)) : read(path)),
      verifier,
      [],
      undefined,
      (start, entries) =>
        entries.forEach((entry, k) => {
          if (wanted.has(start + k + 1)) hashes.set(start + k + 1, entry.toString('hex'));
        }),
    );
    const checked = checkKeptPromises(
      promises,
      { origin: log.origin, size: log.tree_size, key: verifier.key, logHash: (position) => hashes.get(position) },
      Date.now(),
      graceS,
    );
    result = { origin: log.origin, tree_size: log.tree_size, root_hash: log.root_hash, ...cosigned, ...checked };
  } catch (error) {
    if (!(error instanceof NoteError || error instanceof TiledLogError)) throw error;
    process.stdout.write(`${JSON.stringify({ kind: 'promises', holds: false, problems: [error.message] }, null, 2)}\n`);
    process.stderr.write(`FAILED: ${error.message}\n`);
    return 1;
  }
  const broken = result.broken as BrokenPromise[];
  process.stdout.write(`${JSON.stringify({ kind: 'promises', holds: broken.length === 0, ...result }, null, 2)}\n`);
  process.stderr.write(
    broken.length === 0
      ? `OK: ${String(result.confirmed)} of ${promises.length} promises are in ${String(result.origin)} under its checkpoint of tree size ${String(result.tree_size)}, ${String(result.pending)} pending\n`
      : `BROKEN: ${broken.length} of ${promises.length} promises are not kept by the log\n${broken
          .slice(0, 20)
          .map((b) => `  position ${b.position} (${b.entry_hash}): ${b.problem}`)
          .join('\n')}\n`,
  );
  return broken.length === 0 ? 0 : 1;
}

function summary(result: ChainVerification, writersChecked: boolean): string {
  const { checkpoints } = result;
  const lines = [
    result.break_count === 0
      ? `OK: ${result.total_count} entries, every hash and link verified`
      : `TAMPERED: ${result.break_count} breaks in ${result.total_count} entries (${result.verified_count} verified)`,
    checkpoints.last
      ? `${checkpoints.count} checkpoints; the last vouches for position ${checkpoints.last.position}, hash ${checkpoints.last.hash}`
      : `${checkpoints.count} checkpoints`,
  ];
  if (!checkpoints.signatures_checked && checkpoints.count > 0) {
    lines.push('WARNING: no --public-key given: checkpoint signatures were NOT checked');
  }
  if (!writersChecked)
    lines.push(
      'NOTE: no --signing-key given: writer authenticators were not checked (an entry inserted by SQL passes)',
    );
  return lines.join('\n');
}

main(process.argv.slice(2)).then(
  (status) => (process.exitCode = status),
  (error: unknown) => {
    process.stderr.write(`verify-chain: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
