import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = join(__dirname, '../..');
const STARTUP_LIMIT_MS = 40_000;

/** The real service as a process: main.ts through ts-node, so no build is needed. */
describe('the service process', () => {
  let dataDir: string;
  let service: ChildProcess;
  let output = '';
  let port: number;
  const exited = () => new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crcs-shutdown-'));
    port = await freePort();
    service = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: ROOT,
      // Its own embedded database whatever the environment says, so nothing else is touched.
      env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForHealth(port, STARTUP_LIMIT_MS, () => service.exitCode !== null);
  }, STARTUP_LIMIT_MS + 5000);

  afterAll(async () => {
    if (service?.exitCode === null) service.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
    const exit = exited();

    // A request whose body is still arriving is in flight when the signal comes.
    const body = JSON.stringify({ probe: 'in-flight' });
    const inFlight = openRequest(port, 'POST', '/api/v1/in-flight', {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': 'in-flight-1',
    });
    let answered = false;
    void inFlight.response.then(() => (answered = true), () => undefined);
    inFlight.request.write(body.slice(0, 5));
    await sleep(300);

    service.kill('SIGTERM');
    await sleep(500);
    await expect(get(port, '/api/v1/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    expect(answered).toBe(false);
    inFlight.request.end(body.slice(5));
    const response = await inFlight.response;
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(await readBody(response))).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });

    expect(await Promise.race([exit, sleep(10_000, 'still running', { ref: false })])).toBe(0);
    const requestLines = output
      .split('\n')
      .filter((line) => line.includes('in-flight-1'))
      .map((line) => JSON.parse(line));
    expect(requestLines).toContainEqual(expect.objectContaining({ reqId: 'in-flight-1', msg: 'request completed' }));
  }, 20_000);
});

describe('the service process with a bad configuration', () => {
  it('prints which variables are wrong, without a stack trace, and exits 1', async () => {
    const service = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: '70000', LOG_LEVEL: 'loud' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    service.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => service.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT is "70000" but must be an integer from 1 to 65535');
    expect(stderr).toContain('LOG_LEVEL is "loud" but must be one of');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 20_000);
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(port: number, limitMs: number, hasExited: () => boolean): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline && !hasExited()) {
    const status = await get(port, '/api/v1/health').then((response) => response.statusCode, () => 0);
    if (status === 200) return;
    await sleep(250);
  }
  throw new Error('the service did not become healthy');
}

/** A fresh connection per request (no keep-alive pool), so "refused" means the listener is closed. */
function openRequest(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  let req!: ClientRequest;
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, resolve);
    req.on('error', reject);
  });
  return { request: req, response };
}

async function get(port: number, path: string): Promise<IncomingMessage> {
  const { request: req, response } = openRequest(port, 'GET', path);
  req.end();
  const answer = await response;
  answer.resume();
  return answer;
}

async function readBody(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response) text += chunk;
  return text;
}
