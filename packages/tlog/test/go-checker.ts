import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Interop with an independent implementation of the C2SP formats: Go's golang.org/x/mod/sumdb/note
 * and sumdb/tlog, from Debian's golang-golang-x-mod-dev, built by `go` from Debian's golang-go
 * into a temporary folder (GOPATH mode, nothing downloaded). Without them the suites that use it
 * are skipped, loudly; with CRCS_REQUIRE_INTEROP=1 (CI sets it) they fail instead.
 */

const X_MOD = '/usr/share/gocode/src/golang.org/x/mod/sumdb';
const PROGRAM = join(__dirname, 'go/c2sp-check');

function missing(): string | undefined {
  if (spawnSync('go', ['version']).status !== 0) return 'no `go` on the PATH (Debian: golang-go)';
  if (!existsSync(join(X_MOD, 'note')) || !existsSync(join(X_MOD, 'tlog')))
    return `no ${X_MOD}/{note,tlog} (Debian: golang-golang-x-mod-dev)`;
  return undefined;
}

const absent = missing();
const required = process.env.CRCS_REQUIRE_INTEROP === '1';
if (absent && !required) {
  process.stderr.write(
    `\n${'!'.repeat(100)}\n!! C2SP INTEROP TESTS SKIPPED: ${absent}.\n!! The checkpoints and tiles are NOT checked against Go's implementation in this run; CRCS_REQUIRE_INTEROP=1 makes this a failure.\n${'!'.repeat(100)}\n\n`,
  );
}

/** `describe`, or `describe.skip` when Go or its sources are missing and CRCS_REQUIRE_INTEROP is not 1. */
export const goSuite = absent && !required ? describe.skip : describe;

export interface GoRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs c2sp-check (go/c2sp-check/main.go says its commands) with `args`, `stdin` as its input. */
export type GoChecker = (args: string[], stdin?: string) => Promise<GoRun>;

/** Builds c2sp-check into `work` (its build cache and Go's temporary files there too, removed with it). */
export function buildGoChecker(work: string): GoChecker {
  if (absent) throw new Error(`CRCS_REQUIRE_INTEROP=1, but ${absent}`);
  const program = join(work, 'c2sp-check');
  const env = {
    ...process.env,
    GO111MODULE: 'off',
    GOPATH: '/usr/share/gocode',
    GOCACHE: join(work, 'cache'),
    GOTMPDIR: work,
    GOFLAGS: '',
    GOPROXY: 'off',
    GOENV: 'off',
  };
  const built = spawnSync('go', ['build', '-o', program, '.'], { cwd: PROGRAM, env, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`go build failed: ${built.stderr}`);
  return (args, stdin = '') =>
    new Promise((resolve) => {
      // A ceiling for a loaded machine, not a budget: the log check reads every tile over HTTP.
      const child = execFile(program, args, { timeout: 300_000 }, (error, stdout, stderr) =>
        resolve({
          status: error ? Number(error.code ?? 1) : 0,
          stdout,
          // Killed at the ceiling, it says nothing itself: the status alone would not say why it failed.
          stderr: error?.signal ? `${stderr}[killed by ${error.signal}]` : stderr,
        }),
      );
      // A command that reads no input can exit before its input is written, closing the pipe: its
      // exit status and output say how it went, not the write (CI failed once on this EPIPE).
      child.stdin!.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
      child.stdin!.end(stdin);
    });
}
