import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Body, Controller, ForbiddenException, Get, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Public } from '../../src/platform/identity/roles.decorator';
import { DomainError } from '../../src/platform/errors/domain-error';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { startTestApp, type TestApp } from '../support/test-app';

class EchoItem {
  @IsInt() @Min(1) qty: number;
}

class EchoRequest {
  @IsString() name: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => EchoItem) items?: EchoItem[];
}

/**
 * Test-only routes: a JSON body to reject, and each kind of failure a handler can throw. Open, so
 * that no key is needed; kept out of the OpenAPI document, which describes the service.
 */
@Public()
@ApiExcludeController()
@Controller('test-only')
class TestOnlyController {
  @Post('echo')
  echo(@Body() body: EchoRequest): EchoRequest {
    return body;
  }

  @Get('things/:id')
  thing(@Param('id') id: string): { id: string } {
    return { id };
  }

  @Get('crash')
  crash(): never {
    throw new Error('connection to 10.0.0.7 refused at /srv/app/src/ledger.ts:42:7');
  }

  @Get('forbidden')
  forbidden(): never {
    throw new ForbiddenException('Insufficient permissions for this endpoint');
  }

  @Get('domain-error')
  domainError(): never {
    throw new DomainError('ALREADY_VOIDED', 'Transaction TXN-1 is already voided', HttpStatus.CONFLICT);
  }
}

/** A stack frame, or a source path with a line number. */
const STACK_TRACE = /\n\s+at |\bat .*\(|\.[jt]s:\d+|node_modules/;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(baseUrl: string, path: string, init?: RequestInit): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  expect(text).not.toMatch(STACK_TRACE);
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const post = (body: RequestInit['body'], headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  body,
  headers,
});
const json = (value: unknown) => post(JSON.stringify(value), { 'content-type': 'application/json' });

describe('foundation over HTTP', () => {
  let testApp: TestApp;
  const get = (path: string, init?: RequestInit) => call(testApp.baseUrl, path, init);
  const echo = (init: RequestInit) => call(testApp.baseUrl, '/test-only/echo', init);

  beforeAll(async () => {
    testApp = await startTestApp({ controllers: [TestOnlyController] });
  });

  afterAll(() => testApp?.close());

  describe('GET /health', () => {
    it('reports the database, the chain head, the read replica (none), the uptime and the enforced rules', async () => {
      const { status, headers, body } = await get('/health');
      expect(status).toBe(200);
      expect(headers.get('cache-control')).toBe('no-store');
      expect(body).toEqual({
        status: 'ok',
        database: {
          driver: expect.stringMatching(/^(embedded|postgres)$/),
          reachable: true,
          latency_ms: expect.any(Number),
        },
        chain: {
          head_position: expect.any(Number),
          signer: { state: 'off', signed_tree_size: null, alarm: null },
          alarms: [],
        },
        read_replica: { state: 'off', lag_ms: null, data_as_of: null, max_lag_ms: null },
        projections: expect.arrayContaining([
          {
            name: 'transaction-list',
            mode: 'async',
            position: expect.any(Number),
            lag_entries: expect.any(Number),
            lag_ms: expect.any(Number),
          },
          expect.objectContaining({ name: 'merchants', mode: 'async' }),
          expect.objectContaining({ name: 'tips', mode: 'async' }),
          expect.objectContaining({ name: 'api-keys', mode: 'async' }),
        ]),
        uptime_seconds: expect.any(Number),
        enforced_rules: expect.any(Array),
        jurisdiction_data: expect.any(Object),
      });
      expect(Number.isInteger(body.uptime_seconds)).toBe(true);
    });
  });

  describe('GET /version', () => {
    it('gives the API version, the engine version of package.json and the routes the router serves', async () => {
      const { status, body } = await get('/version');
      const packageJson = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
      expect(status).toBe(200);
      expect(body.api_version).toBe('4.1.0');
      expect(body.engine_version).toBe(packageJson.version);
      expect(body.endpoints).toEqual(
        expect.arrayContaining([
          { method: 'GET', path: '/api/v1/health' },
          { method: 'GET', path: '/api/v1/version' },
          { method: 'POST', path: '/api/v1/test-only/echo' },
          { method: 'GET', path: '/api/v1/test-only/things/{id}' },
        ]),
      );
      expect(body.endpoints.filter((e: { method: string }) => e.method === 'HEAD')).toEqual([]);
    });
  });

  describe('x-request-id', () => {
    it("echoes the client's id when it is sane", async () => {
      const { headers } = await get('/health', { headers: { 'x-request-id': 'pos-7f3a.42:1' } });
      expect(headers.get('x-request-id')).toBe('pos-7f3a.42:1');
    });

    it.each([['with spaces'], ['x'.repeat(129)], ['']])('replaces %j by a fresh uuid', async (given) => {
      const { headers } = await get('/health', { headers: { 'x-request-id': given } });
      expect(headers.get('x-request-id')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    });

    it('comes with error responses too', async () => {
      const { headers } = await echo(post('hello', { 'content-type': 'text/plain', 'x-request-id': 'req-415' }));
      expect(headers.get('x-request-id')).toBe('req-415');
    });
  });

  describe('errors', () => {
    it.each([['/api/v1/no-such-route'], ['/no-prefix']])(
      'answers an unknown route %s with 404 NOT_FOUND',
      async (path) => {
        const { status, body } = await call(testApp.baseUrl.replace('/api/v1', ''), path);
        expect(status).toBe(404);
        expect(body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
      },
    );

    it('rejects a text/plain body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const { status, body } = await echo(post('{"name":"a"}', { 'content-type': 'text/plain' }));
      expect(status).toBe(415);
      expect(body).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('application/json') });
    });

    it('rejects a form body with 415', async () => {
      const { status, body } = await echo(post('name=a', { 'content-type': 'application/x-www-form-urlencoded' }));
      expect(status).toBe(415);
      expect(body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('rejects a body without any Content-Type with 415', async () => {
      const { status, body } = await echo(post(new TextEncoder().encode('{"name":"a"}')));
      expect(status).toBe(415);
      expect(body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('takes application/json with a charset', async () => {
      const { status, body } = await echo(
        post('{"name":"Zoë"}', { 'content-type': 'application/json; charset=utf-8' }),
      );
      expect(status).toBe(201);
      expect(body).toEqual({ name: 'Zoë' });
    });

    it('treats a POST without body or Content-Type as an empty body, then validates it', async () => {
      const { status, body } = await echo(post(undefined));
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'VALIDATION_ERROR',
        message: expect.stringContaining('name'),
        details: [{ field: 'name', messages: ['name is required'] }],
      });
    });

    it('treats an empty application/json body the same way', async () => {
      const { status, body } = await echo(post('', { 'content-type': 'application/json' }));
      expect(status).toBe(400);
      expect(body.error).toBe('VALIDATION_ERROR');
      expect(body.details).toEqual([{ field: 'name', messages: ['name is required'] }]);
    });

    it('rejects malformed JSON with 400 INVALID_JSON', async () => {
      const { status, body } = await echo(post('{"name": "a",', { 'content-type': 'application/json' }));
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'INVALID_JSON', message: 'Request body is not valid JSON' });
    });

    it('rejects prototype poisoning as INVALID_JSON', async () => {
      const { status, body } = await echo(
        post('{"name":"a","__proto__":{"admin":true}}', { 'content-type': 'application/json' }),
      );
      expect(status).toBe(400);
      expect(body.error).toBe('INVALID_JSON');
    });

    it('rejects a body over 100 kB with 413 PAYLOAD_TOO_LARGE', async () => {
      const { status, body } = await echo(json({ name: 'x'.repeat(101 * 1024) }));
      expect(status).toBe(413);
      expect(body).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    });

    it('accepts a body just under the limit', async () => {
      const { status } = await echo(json({ name: 'x'.repeat(99_000) }));
      expect(status).toBe(201);
    });

    it('rejects unknown fields with one detail per field', async () => {
      const { status, body } = await echo(json({ name: 'a', colour: 'red', size: 3 }));
      expect(status).toBe(400);
      expect(body.error).toBe('VALIDATION_ERROR');
      expect(body.details).toEqual([
        { field: 'colour', messages: ['property colour should not exist'] },
        { field: 'size', messages: ['property size should not exist'] },
      ]);
    });

    it('names nested fields by their path', async () => {
      const { status, body } = await echo(json({ name: 'a', items: [{ qty: 1 }, { qty: 0 }] }));
      expect(status).toBe(400);
      expect(body.details).toEqual([{ field: 'items.1.qty', messages: ['qty must not be less than 1'] }]);
    });

    it.each([['1e999'], ['{"amount": -1e400}'], ['{"a": [1, {"b": 1e309}]}']])(
      'rejects %s, a number JSON cannot hold, as invalid JSON',
      async (raw) => {
        const { status, body } = await echo(post(raw, { 'content-type': 'application/json' }));
        expect({ status, body }).toEqual({
          status: 400,
          body: { error: 'INVALID_JSON', message: 'Request body is not valid JSON' },
        });
      },
    );

    it.each([['[]'], ['"name"'], ['42'], ['null']])(
      'rejects the JSON value %s where an object is expected',
      async (raw) => {
        const { status, body } = await echo(post(raw, { 'content-type': 'application/json' }));
        expect(status).toBe(400);
        expect(body.error).toBe('VALIDATION_ERROR');
        expect(body.details.length).toBeGreaterThan(0);
      },
    );

    it('maps an unexpected error to 500 INTERNAL_ERROR without its message or stack', async () => {
      const { status, body } = await get('/test-only/crash');
      expect(status).toBe(500);
      expect(body).toEqual({ error: 'INTERNAL_ERROR', message: 'Internal server error' });
    });

    it('maps a Nest HttpException by its status', async () => {
      const { status, body } = await get('/test-only/forbidden');
      expect(status).toBe(403);
      expect(body).toEqual({ error: 'FORBIDDEN', message: 'Insufficient permissions for this endpoint' });
    });

    it('maps a DomainError to its own status and code', async () => {
      const { status, body } = await get('/test-only/domain-error');
      expect(status).toBe(409);
      expect(body).toEqual({ error: 'ALREADY_VOIDED', message: 'Transaction TXN-1 is already voided' });
    });
  });
});

describe('GET /health with the database down', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Closing the database a second time at shutdown is harmless, so the test can close it under the app. Its
    // database is a PostgreSQL database of the run's server, whichever driver started that server.
    testApp = await startTestApp();
  });

  afterAll(() => testApp?.close());

  it('answers 503 degraded', async () => {
    await testApp.app.get<Database>(DATABASE).close();
    const { status, body } = await call(testApp.baseUrl, '/health');
    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: 'degraded',
      database: { driver: 'postgres', reachable: false, latency_ms: null },
      chain: { head_position: null },
    });
  });
});
