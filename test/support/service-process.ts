import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnv } from './child-env';

const ROOT = join(__dirname, '../..');
const builtMain = (root: string) => join(root, 'dist/src/main.js');
/**
 * The service as `npm start` runs it, built from the current sources by the test run's global
 * set-up: a start through ts-node cost about five times the CPU (the compiler loaded in the process
 * and in each of its worker threads), and the suites start the service dozens of times.
 */
export const BUILT_MAIN = builtMain(ROOT);

export interface ServiceProcessOptions {
  /** On top of PATH and PORT; nothing else of the parent's environment is passed on. */
  env: Record<string, string>;
  /**
   * `built` (default): dist/src/main.js as `npm start` runs it. `{tsFile}`: another server script,
   * through ts-node, which must answer `GET /api/v1/health` with 200 once it is ready (the bench's
   * baseline). `{builtIn}`: the built service of another checkout of this repository, run from
   * there (a bench's build before a change).
   */
  entry?: 'built' | { tsFile: string } | { builtIn: string };
  /** Flags for node itself, e.g. `--cpu-prof`, which NODE_OPTIONS does not take. */
  nodeArgs?: string[];
  /** A port to reuse (a restart after a crash); default a free one. */
  port?: number;
  /** A ceiling for a loaded machine (a start there took over 40 s), not a budget: the start ends at the first 200. */
  startupLimitMs?: number;
}

/** The real service as a child process, on loopback, with its output kept for assertions. */
export class ServiceProcess {
  output = '';
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start({
    env,
    entry = 'built',
    nodeArgs = [],
    port,
    startupLimitMs = 120_000,
  }: ServiceProcessOptions): Promise<ServiceProcess> {
    const other = typeof entry === 'object' && 'builtIn' in entry ? entry.builtIn : undefined;
    const root = other ?? ROOT;
    const main = builtMain(root);
    const tsFile = typeof entry === 'object' && 'tsFile' in entry ? entry.tsFile : undefined;
    if (!tsFile && !existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` there first`);
    const script = tsFile ? ['-r', 'ts-node/register/transpile-only', tsFile] : [main];
    const chosenPort = port ?? (await freePort());
    const child = spawn(process.execPath, [...nodeArgs, ...script], {
      cwd: root,
      env: childEnv({ PORT: String(chosenPort), ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child, chosenPort);
    try {
      await service.waitForHealth(startupLimitMs);
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n${service.output.slice(-2000)}`);
    }
    return service;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/api/v1`;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the exit code (null when a signal ended it). */
  exited(): Promise<number | null> {
    if (!this.running) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** The process's peak resident set (VmHWM) in bytes: Linux only, read before it ends. */
  peakRssBytes(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    if (!kib) throw new Error('no VmHWM in /proc/<pid>/status');
    return Number(kib[1]) * 1024;
  }

  /** SIGTERM and wait for the exit; SIGKILL when it takes longer than `limitMs`. */
  async stop(limitMs = 10_000): Promise<number | null> {
    if (!this.running) return this.child.exitCode;
    const exit = this.exited();
    this.child.kill('SIGTERM');
    const code = await Promise.race([exit, sleep(limitMs, 'timeout' as const, { ref: false })]);
    if (code !== 'timeout') return code;
    return this.kill();
  }

  /** `kill -9`: no shutdown hook runs. */
  async kill(): Promise<number | null> {
    const exit = this.exited();
    this.child.kill('SIGKILL');
    return exit;
  }

  private async waitForHealth(limitMs: number): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (Date.now() < deadline && this.running) {
      const status = await get(this.port, '/api/v1/health').then(
        (response) => response.statusCode,
        () => 0,
      );
      if (status === 200) return;
      // Every 20 ms: the bench times starts by this wait, and at 200 ms a start read up to 200 ms long.
      await sleep(20);
    }
    throw new Error(this.running ? 'the service did not become healthy in time' : 'the service exited during start');
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A fresh connection per request (no keep-alive pool), so "refused" means the listener is closed. */
export function openRequest(port: number, method: string, path: string, headers: OutgoingHttpHeaders = {}) {
  let req!: ClientRequest;
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, resolve);
    req.on('error', reject);
  });
  return { request: req, response };
}

export async function get(port: number, path: string): Promise<IncomingMessage> {
  const { request: req, response } = openRequest(port, 'GET', path);
  req.end();
  const answer = await response;
  answer.resume();
  return answer;
}

export async function readBody(response: IncomingMessage): Promise<string> {
  // Decoded as a stream: a character split between two chunks stays whole.
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) text += chunk;
  return text;
}
