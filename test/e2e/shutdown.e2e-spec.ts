import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SHUTDOWN_GRACE_MS } from '../../src/app.factory';
import { BUILT_MAIN, get, openRequest, readBody, ServiceProcess } from '../support/service-process';
import { childEnv } from '../support/child-env';

const ROOT = join(__dirname, '../..');

/**
 * A request whose head the service has read, so that it is in flight: sent with `Expect:
 * 100-continue`, which Node's server answers with 100 once it has parsed the head. The body is the caller's to send.
 */
async function startedRequest(port: number, method: string, path: string, headers: Record<string, string>) {
  const opened = openRequest(port, method, path, { ...headers, expect: '100-continue' });
  const read = new Promise<void>((resolve) => opened.request.once('continue', () => resolve()));
  opened.request.flushHeaders();
  await Promise.race([read, opened.response]);
  return opened;
}

/**
 * Until the service no longer accepts connections: the error of the first request refused. A
 * connection reset was still in the listener's queue when it closed (never served, never refused):
 * the next one will tell.
 */
async function refused(port: number): Promise<NodeJS.ErrnoException> {
  for (;;) {
    try {
      await get(port, '/api/v1/health');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') return error as NodeJS.ErrnoException;
    }
    await sleep(50);
  }
}

/** The real service as a process, one per test as each stops it: as `npm start` runs it (the test run's set-up builds it). */
describe('the service process', () => {
  let dataDir: string;
  let service: ServiceProcess;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crcs-shutdown-'));
    // Its own embedded database whatever the environment says, so nothing else is touched.
    // A start can take long on the 2-core machine when other suites load it.
    service = await ServiceProcess.start({ env: { DATA_DIR: dataDir, LOG_LEVEL: 'info' }, startupLimitMs: 90_000 });
  }, 100_000);

  afterEach(async () => {
    if (service?.running) await service.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
    const { port } = service;
    const exit = service.exited();

    // A request whose body is still arriving is in flight when the signal comes.
    const body = JSON.stringify({ probe: 'in-flight' });
    const inFlight = await startedRequest(port, 'POST', '/api/v1/in-flight', {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': 'in-flight-1',
    });
    let answered = false;
    void inFlight.response.then(
      () => (answered = true),
      () => undefined,
    );
    inFlight.request.write(body.slice(0, 5));

    service.child.kill('SIGTERM');
    expect(await refused(port)).toMatchObject({ code: 'ECONNREFUSED' });

    expect(answered).toBe(false);
    inFlight.request.end(body.slice(5));
    const response = await inFlight.response;
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(await readBody(response))).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });

    expect(await Promise.race([exit, sleep(10_000, 'still running', { ref: false })])).toBe(0);
    const requestLines = service.output
      .split('\n')
      .filter((line) => line.includes('in-flight-1'))
      .map((line) => JSON.parse(line));
    expect(requestLines).toContainEqual(expect.objectContaining({ reqId: 'in-flight-1', msg: 'request completed' }));
  }, 20_000);

  it(
    'on SIGTERM waits the grace period for a request whose body never comes, then cuts it and exits 0',
    async () => {
      const exit = service.exited();
      const stalled = await startedRequest(service.port, 'POST', '/api/v1/transaction', {
        'content-type': 'application/json',
        'content-length': '1000',
      });
      stalled.request.write('{"merchant_id":');
      const cut = stalled.response.then(
        () => 'answered',
        (error: NodeJS.ErrnoException) => error.code,
      );

      const signalled = Date.now();
      service.child.kill('SIGTERM');
      expect(await Promise.race([exit, sleep(SHUTDOWN_GRACE_MS + 10_000, 'still running', { ref: false })])).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS - 100);
      expect(await cut).toBe('ECONNRESET');
    },
    SHUTDOWN_GRACE_MS + 20_000,
  );
});

describe('the service process with a bad configuration', () => {
  it('prints which variables are wrong, without a stack trace, and exits 1', async () => {
    const service = spawn(process.execPath, [BUILT_MAIN], {
      cwd: ROOT,
      env: childEnv({ PORT: '70000', LOG_LEVEL: 'loud' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    service.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => service.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT is "70000" but must be an integer from 1 to 65535');
    expect(stderr).toContain('LOG_LEVEL is "loud" but must be one of');
    expect(stderr).not.toMatch(/\n\s+at /);
    // As long as a start of the service may take on a loaded machine (the limit above).
  }, 100_000);
});
