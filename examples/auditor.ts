/**
 * An auditor's script: takes the audit log away from the service and verifies it offline.
 *
 *   CRCS_AUDITOR_KEY=<an auditor key> npm run example:auditor
 *   CRCS_ADMIN_KEY=<the service's ADMIN_API_KEY> npm run example:auditor   # issues itself an auditor key first
 *   CRCS_BASE_URL=http://127.0.0.1:3000/api/v1 (the default)   CRCS_AUDIT_DIR=./audit (the default)
 *
 *   1. export the whole log (`GET /admin/audit-logs/export`, NDJSON) to CRCS_AUDIT_DIR/audit-log.ndjson;
 *   2. keep the checkpoint public key (`GET /admin/checkpoint-key`) in CRCS_AUDIT_DIR/checkpoint-key.pem,
 *      when the service signs checkpoints. A key fetched from the service under audit proves
 *      nothing if the service itself is compromised, so the first key seen is kept and later runs
 *      verify against that copy (or put the key the operator gave you there before the first run);
 *   3. run the project's offline verifier on the file, with no database and no service.
 *
 * Exit status: 0 when every entry verified, 1 when the verifier found any break, 2 when nothing
 * could be verified (the service refused, the file could not be read).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
// Only the shape of the verifier's JSON report; nothing of the service runs in this process.
import type { ChainVerification } from '@crcs/tlog';
import { ApiError, BASE_URL, describeFailure, request } from './service-client';

const AUDIT_DIR = resolve(process.env.CRCS_AUDIT_DIR ?? 'audit');
const EXPORT_FILE = join(AUDIT_DIR, 'audit-log.ndjson');
const KEY_FILE = join(AUDIT_DIR, 'checkpoint-key.pem');

/** The checkout this example lives in: the verifier is its log package's `packages/tlog/src/bin/verify-chain.ts`, as `npm run build` built it. */
const ROOT = resolve(__dirname, '..');
const VERIFIER = join(ROOT, 'packages', 'tlog', 'dist', 'bin', 'verify-chain.js');

const json = async <T>(response: Promise<Response>): Promise<T> => (await (await response).json()) as T;

/** The auditor key given, or one issued with the admin key (auditors may read the log; they may change nothing). */
async function auditorKey(): Promise<string> {
  if (process.env.CRCS_AUDITOR_KEY) return process.env.CRCS_AUDITOR_KEY;
  const adminKey = process.env.CRCS_ADMIN_KEY;
  if (!adminKey) {
    process.stderr.write(
      'Set CRCS_AUDITOR_KEY (or CRCS_ADMIN_KEY, to issue one), and CRCS_BASE_URL if the service is not on 127.0.0.1:3000.\n',
    );
    process.exit(2);
  }
  const issued = await json<{ key: string; api_key: { id: string } }>(
    request('POST', '/admin/api-keys', {
      key: adminKey,
      body: { role: 'auditor', name: `auditor example ${new Date().toISOString().slice(0, 10)}` },
    }),
  );
  console.log(`  auditor key: ${issued.api_key.id}, issued with the admin key`);
  return issued.key;
}

/**
 * The checkpoint public key file to verify with, or undefined when there is none (the service
 * signs no checkpoints). A key kept from an earlier audit is used as it is: if the service now
 * serves another one, that is said, and the kept one still decides.
 */
async function checkpointKeyFile(key: string): Promise<string | undefined> {
  const kept = await readFile(KEY_FILE, 'utf8').catch(() => undefined);
  let served: { key_id: string; public_key_pem: string } | undefined;
  try {
    served = await json(request('GET', '/admin/checkpoint-key', { key }));
  } catch (error) {
    // 404: CHECKPOINT_SIGNING_KEY is not set on the service. Anything else is a real failure.
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  if (kept !== undefined) {
    const note =
      served === undefined
        ? 'the service serves none now'
        : served.public_key_pem === kept
          ? 'the service serves the same'
          : `WARNING: the service now serves another key (${served.key_id}); get it from the operator if it was rotated`;
    console.log(`  checkpoint key: the one kept in ${shown(KEY_FILE)} (${note})`);
    return KEY_FILE;
  }
  if (served === undefined) {
    console.log(
      '  checkpoint key: none, the service signs no checkpoints; hashes and links are verified, but a rewrite that recomputed every hash would go unseen',
    );
    return undefined;
  }
  await writeFile(KEY_FILE, served.public_key_pem);
  console.log(`  checkpoint key: ${served.key_id}, fetched and kept in ${shown(KEY_FILE)} for later audits`);
  return KEY_FILE;
}

/** Streams the NDJSON export to the file: a log of millions of entries never sits in memory. */
async function exportLog(key: string): Promise<void> {
  const response = await request('GET', '/admin/audit-logs/export', { key });
  await pipeline(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), createWriteStream(EXPORT_FILE));
  console.log(`  exported the log to ${shown(EXPORT_FILE)}`);
}

/**
 * The shipped verifier, run as its own process exactly as an auditor runs it by hand
 * (`npm run verify-chain -- audit-log.ndjson --public-key checkpoint-key.pem`), rather than
 * importing ChainVerifier: what this script reports is then what the project's verifier reports,
 * with its own exit status, and the check depends on nothing but the file, the key and the pure
 * hash-chain modules that script loads.
 */
function runVerifier(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [VERIFIER, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (status) => done({ status: status ?? 2, stdout, stderr }));
  });
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A path as short as it reads well: relative to the working directory when inside it. */
const shown = (path: string) => {
  const near = relative(process.cwd(), path);
  return near && !near.startsWith('..') ? near : path;
};

async function main(): Promise<number> {
  console.log(`Audit of ${BASE_URL}`);
  const key = await auditorKey();
  await mkdir(AUDIT_DIR, { recursive: true });
  const publicKeyFile = await checkpointKeyFile(key);
  await exportLog(key);

  // From here on the service is not asked anything: the file and the kept key are all there is.
  const args = [EXPORT_FILE, ...(publicKeyFile ? ['--public-key', publicKeyFile] : [])];
  console.log(`\nOffline verification: verify-chain ${args.map(shown).join(' ')}`);
  const { status, stdout, stderr } = await runVerifier(args);
  // The verifier's own summary (stderr), then its JSON report (stdout) in a few lines.
  for (const line of stderr.trimEnd().split('\n')) console.log(`  ${line}`);
  if (status === 2) return 2; // it could not read the file: its message is above

  const result = JSON.parse(stdout) as ChainVerification;
  const signatures = result.checkpoints.signatures_checked
    ? 'checkpoint signatures checked'
    : 'checkpoint signatures NOT checked';
  console.log(
    `\nResult: ${result.verified_count} of ${result.total_count} entries verified, ${count(result.break_count, 'break')}, ` +
      `${count(result.checkpoints.count, 'checkpoint')} (${signatures})`,
  );
  for (const b of result.breaks)
    console.log(`  break at position ${b.position}: ${b.kind}, entry ${b.entry_id}: ${b.detail}`);
  if (result.breaks.length < result.break_count)
    console.log(`  ... and ${result.break_count - result.breaks.length} more (see the verifier's JSON report)`);
  return status;
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    process.stderr.write(`${describeFailure(error)}\n`);
    process.exit(2);
  },
);
