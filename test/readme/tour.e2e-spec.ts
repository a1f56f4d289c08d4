import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ServiceProcess } from '../support/service-process';

const ROOT = join(__dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');

/**
 * The shell blocks of the tour, in a reader's order: the README's first sale, then the integrators'
 * and the auditors' documents, which go on from it.
 */
function tourBlocks(): string[] {
  const tour = [
    README.slice(README.indexOf('## A first sale'), README.indexOf('## Where to go next')),
    read('docs/integrators.md'),
    read('docs/auditors.md'),
  ].join('\n');
  return [...tour.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/**
 * A newcomer's first hour: the README's tour, as written, against the service on its default
 * configuration (no variable but the port, a fresh data folder and a short CHECKPOINT_MAX_AGE_S). Only the admin key printed at the
 * first start and the port are filled in, as a reader would. Any curl answered 4xx or 5xx, or any
 * `field` not in its answer, fails the script.
 */
describe('the README tour', () => {
  let service: ServiceProcess;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'crcs-tour-'));
    // As root the embedded server runs as the postgres user, which must be able to pass through to data/.
    chmodSync(work, 0o711);
    // The one setting changed: the README waits up to CHECKPOINT_MAX_AGE_S (60 s) for a signed head; a test does not.
    service = await ServiceProcess.start({ env: { DATA_DIR: join(work, 'data'), CHECKPOINT_MAX_AGE_S: '1' } });
  });

  afterAll(async () => {
    await service?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('runs every command of the tour on the default configuration, in the order written', async () => {
    const adminKey = /store it now: (svc_\w+)/.exec(service.output)?.[1];
    expect(adminKey).toBeDefined();
    const [first, ...rest] = tourBlocks();
    expect(first).toMatch(/^export CRCS=http:\/\/localhost:3000\/api\/v1 ADMIN_KEY=svc_…/);
    const script = [
      'set -euo pipefail',
      'curl() { command curl --fail-with-body "$@"; }',
      // npm works in the checkout; the files the tour writes stay in this test's folder.
      `npm() { command npm --prefix ${JSON.stringify(ROOT)} "$@"; }`,
      first.replace(/^export CRCS=\S+ ADMIN_KEY=\S+/, `export CRCS=${service.baseUrl} ADMIN_KEY=${adminKey}`),
      ...rest,
    ].join('\n');
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', script], {
      cwd: work,
      maxBuffer: 64 << 20,
    }).catch((error: { stdout: string; stderr: string; code: number }) => {
      throw new Error(`the tour failed (exit ${error.code}):\n${error.stderr}\n${error.stdout.slice(-3000)}`);
    });

    expect(stdout).toContain('"cash_total_cents":1100');
    expect(stderr).toMatch(/^OK: \d+ entries, every hash and link verified$/m);
    expect(stderr).toMatch(
      /^OK: the entry [0-9a-f]{64} is at position \d+ of \S+, under its signed checkpoint of tree size \d+$/m,
    );
    // The auditor's walk-through on a fresh install: signed heads, the witness served, a receipt's inclusion checked with the key.
    const witness = readFileSync(join(work, 'checkpoint-witness.ndjson'), 'utf8');
    expect(witness).toMatch(/^(\{[^\n]*"signature":"[^"]+"[^\n]*\}\n){2,}$/);
    expect(readFileSync(join(work, 'checkpoint-key.pem'), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(readdirSync(work).filter((name) => name.endsWith('.csv'))).toHaveLength(1);
    // Some ninety lines of commands, eight of them a verify-chain process of its own: a busy machine needs more than a minute.
  }, 240_000);
});
