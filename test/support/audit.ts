import { execFile } from 'node:child_process';
import type { KeyObject } from 'node:crypto';
import {
  writerKey,
  keyRing,
  parsePublicKey,
  type SignedTreeHead,
  fromExportLine,
  toExportLine,
  ChainVerifier,
  type ChainVerification,
} from '@crcs/tlog';
import { join } from 'node:path';
import { ChainCheckpointer } from '../../src/audit/chain-checkpointer';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { call } from './auth';
import { TEST_ADMIN_KEY, type TestApp } from './test-app';

/** `GET /admin/audit-logs/export` as text; anything but a 200 fails the test. */
export async function exportLog(app: TestApp, key = TEST_ADMIN_KEY): Promise<string> {
  const answer = await call(app, 'GET', '/admin/audit-logs/export', { key });
  if (answer.status !== 200)
    throw new Error(`export: expected 200, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as string;
}

export const parseExport = (ndjson: string): StoredEvent[] =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => fromExportLine(line) as StoredEvent);
export const toExport = (entries: StoredEvent[]): string => entries.map(toExportLine).join('');

/** What `npm run verify-chain` does with an export, in-process; `signingKey` as `--signing-key` gives it. */
export function verifyExport(
  ndjson: string,
  publicKeyPems: string[] = [],
  witness?: SignedTreeHead[],
  signingKey?: KeyObject,
): ChainVerification {
  const keys = publicKeyPems.length > 0 ? keyRing(publicKeyPems.map(parsePublicKey)) : undefined;
  const verifier = new ChainVerifier({ checkpointKeys: keys, witness, writerKey: signingKey && writerKey(signingKey) });
  parseExport(ndjson).forEach((e) => verifier.push(e));
  return verifier.result();
}

/** The service's checkpoint public key, as an auditor fetches it. */
export async function checkpointPublicKey(app: TestApp): Promise<string> {
  const answer = await call(app, 'GET', '/admin/checkpoint-key', { key: TEST_ADMIN_KEY });
  if (answer.status !== 200) throw new Error(`checkpoint key: expected 200, got ${answer.status}`);
  return answer.body.public_key_pem as string;
}

/** Waits until the checkpoints due for what was appended so far are written. */
export const checkpointsWritten = (app: TestApp): Promise<void> => app.app.get(ChainCheckpointer).idle();

const ROOT = join(__dirname, '../..');

/**
 * `npm run verify-chain -- <args>` as its own process (the log package's built bin, as an auditor's
 * `npx verify-chain` runs it), without the test runner's Node options.
 */
export const runVerifier = (args: string[], env: Record<string, string> = {}) =>
  runTool('packages/tlog/dist/bin/verify-chain.js', args, env);

/** `npm run verify-export -- <args>`: the service's check of a CSV export against the log's. */
export const runExportCheck = (args: string[]) => runTool('dist/scripts/verify-export.js', args, {});

function runTool(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env } },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
