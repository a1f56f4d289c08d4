import { Controller, Get, Logger } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../src/platform/identity/roles.decorator';
import { RootLogger } from '../../src/platform/logging/request-log';
import { issueKey, onboardMerchant } from '../support/auth';
import { saleBody } from '../support/sales';
import { startTestApp, type TestApp } from '../support/test-app';

/** Test-only routes: one that logs while it runs (across an await), one that fails. */
@Public()
@ApiExcludeController()
@Controller('test-only')
class LoggingController {
  private readonly logger = new Logger('TestOnly');

  @Get('logs')
  async logs(): Promise<{ ok: true }> {
    this.logger.log('before the await');
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.logger.warn('after the await');
    return { ok: true };
  }

  @Get('crash')
  crash(): never {
    throw new Error('test-only failure');
  }
}

describe('the access log', () => {
  let testApp: TestApp;
  const lines: Record<string, any>[] = [];
  /** The lines of one request, by the x-request-id it was sent with (the access line last, once its response is closed). */
  const linesOf = async (reqId: string, count: number) => {
    for (let waited = 0; lines.filter((line) => line.reqId === reqId).length < count && waited < 2000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return lines.filter((line) => line.reqId === reqId);
  };
  const send = (path: string, reqId: string, init: RequestInit = {}) =>
    fetch(`${testApp.baseUrl}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-request-id': reqId } });

  beforeAll(async () => {
    const destination = { write: (line: string) => void lines.push(JSON.parse(line)) };
    testApp = await startTestApp({
      controllers: [LoggingController],
      override: (builder) => builder.overrideProvider(RootLogger).useValue(new RootLogger('info', destination)),
    });
  });

  afterAll(() => testApp?.close());

  it('writes one info line per sale, with the request, the response, the time taken, and the secrets redacted', async () => {
    const merchant = await onboardMerchant(testApp);
    const { key } = await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id });
    const answer = await send('/transaction?source=test', 'log-sale', {
      method: 'POST',
      headers: { 'x-api-key': key, authorization: 'Bearer secret', cookie: 'session=secret', 'content-type': 'application/json' },
      body: JSON.stringify(saleBody(merchant.merchant_id)),
    });
    expect(answer.status).toBe(201);

    const [line, ...more] = await linesOf('log-sale', 1);
    expect(more).toEqual([]);
    expect(Object.keys(line)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'msg']);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: {
        id: 'log-sale',
        method: 'POST',
        url: '/api/v1/transaction?source=test',
        query: { source: 'test' },
        headers: { 'x-api-key': '[redacted]', authorization: '[redacted]', cookie: '[redacted]', 'x-request-id': 'log-sale' },
        remoteAddress: '127.0.0.1',
        remotePort: expect.any(Number),
      },
      res: { statusCode: 201, headers: {} },
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(line)).not.toContain(key);
  });

  it('writes a 4xx at warn, and a 5xx at error with the unexpected error before it', async () => {
    expect((await send('/transaction', 'log-401', { method: 'POST' })).status).toBe(401);
    expect(await linesOf('log-401', 1)).toEqual([expect.objectContaining({ level: 40, msg: 'request completed', res: { statusCode: 401, headers: {} } })]);

    expect((await send('/test-only/crash', 'log-500')).status).toBe(500);
    expect(await linesOf('log-500', 2)).toEqual([
      expect.objectContaining({ level: 50, msg: 'unexpected error', err: expect.objectContaining({ message: 'test-only failure' }) }),
      expect.objectContaining({
        level: 50,
        msg: 'request errored',
        res: { statusCode: 500, headers: {} },
        err: expect.objectContaining({ message: 'failed with status code 500' }),
      }),
    ]);
  });

  it('gives the lines logged while a request runs its reqId', async () => {
    expect((await send('/test-only/logs', 'log-inside')).status).toBe(200);
    expect(await linesOf('log-inside', 3)).toEqual([
      { level: 30, time: expect.any(Number), pid: process.pid, hostname: expect.any(String), reqId: 'log-inside', context: 'TestOnly', msg: 'before the await' },
      { level: 40, time: expect.any(Number), pid: process.pid, hostname: expect.any(String), reqId: 'log-inside', context: 'TestOnly', msg: 'after the await' },
      expect.objectContaining({ level: 30, msg: 'request completed' }),
    ]);
  });

  it('logs every request under /api/v1, an unknown route too, and none outside it', async () => {
    const origin = new URL(testApp.baseUrl).origin;
    expect((await send('/no-such-route', 'log-404')).status).toBe(404);
    expect(await linesOf('log-404', 1)).toEqual([expect.objectContaining({ level: 40, req: expect.objectContaining({ url: '/api/v1/no-such-route' }) })]);

    for (const [path, reqId] of [['/no-such-route', 'log-outside'], ['/portal/', 'log-portal']]) {
      await fetch(`${origin}${path}`, { headers: { 'x-request-id': reqId } });
      expect(await linesOf(reqId, 1)).toEqual([]);
    }
  });
});
