#!/usr/bin/env node
import { createReadStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { keyRing, parsePublicKey } from '../src/event-store/chain-checkpoint';
import { fromExportLine } from '../src/event-store/chain-export';
import { ChainVerifier, type ChainVerification } from '../src/event-store/chain-verifier';

const USAGE = 'usage: verify-chain <export.ndjson | -> [--public-key <key.pem>]...';

class InputError extends Error {}

/** `npm run` works in the package's folder: a path is the caller's, relative to where npm was run (INIT_CWD). */
const fromCaller = (path: string): string => resolve(process.env.INIT_CWD ?? '.', path);

/**
 * The auditor's verifier: checks an export of `GET /admin/audit-logs/export` with no database and
 * no service, only the pure hash-chain modules, reading the file a line at a time. Each
 * `--public-key` (PEM, or base64 of the DER, as `GET /admin/checkpoint-key` gives it) is a key
 * whose checkpoint signatures are accepted; give the ones kept from before, not fresh from the
 * service under audit.
 *
 * Prints the result as JSON on stdout and a summary on stderr. Exit status: 0 when no break was
 * found, 1 when any was (a bad signature included), 2 when the input could not be read.
 */
async function main(args: string[]): Promise<number> {
  const { file, keyFiles } = parseArgs(args);
  const keys = keyFiles.length > 0 ? keyRing(keyFiles.map(readPublicKey)) : undefined;
  const verifier = new ChainVerifier({ checkpointKeys: keys });
  const input = file === '-' ? process.stdin : createReadStream(file);
  input.on('error', () => undefined); // reported by the iteration below
  let lineNumber = 0;
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      try {
        verifier.push(fromExportLine(line));
      } catch (error) {
        throw new InputError(`line ${lineNumber}: ${(error as Error).message}`);
      }
    }
  } catch (error) {
    throw error instanceof InputError ? error : new InputError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const result = verifier.result();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write(`${summary(result)}\n`);
  return result.break_count === 0 ? 0 : 1;
}

function parseArgs(args: string[]): { file: string; keyFiles: string[] } {
  const files: string[] = [];
  const keyFiles: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--public-key' && i + 1 < args.length) keyFiles.push(fromCaller(args[++i]));
    else if (args[i] === '-') files.push('-');
    else if (!args[i].startsWith('-')) files.push(fromCaller(args[i]));
    else throw new InputError(`unknown option ${args[i]}\n${USAGE}`);
  }
  if (files.length !== 1) throw new InputError(USAGE);
  return { file: files[0], keyFiles };
}

function readPublicKey(path: string) {
  try {
    return parsePublicKey(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError(`--public-key ${path}: not an Ed25519 public key (${(error as Error).message})`);
  }
}

function summary(result: ChainVerification): string {
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
  return lines.join('\n');
}

main(process.argv.slice(2)).then(
  (status) => (process.exitCode = status),
  (error: unknown) => {
    process.stderr.write(`verify-chain: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
