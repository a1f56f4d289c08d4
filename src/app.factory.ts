import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpStatus, type NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { DomainError } from './platform/errors/domain-error';
import { BodyNotAllowedError } from './platform/errors/request.errors';
import { HttpErrorFilter } from './platform/errors/http-error.filter';
import { refuseJson, refuseTexts } from './platform/errors/hostile-input';
import { createValidationPipe, validationError } from './platform/errors/validation.pipe';
import type { AppConfig } from './platform/config/config';
import { API_PREFIX } from './platform/api-prefix';
import { RouteCatalog } from './health/route-catalog';
import { buildOpenApiDocument } from './platform/openapi/openapi-document';
import { withWebhookEvents } from './webhooks/webhook-events.openapi';
import { OpenApiDocument } from './platform/openapi/openapi-document.provider';
import { servePortal } from './portal/portal';
import { requestTaken } from '@crcs/tlog';

/** "100 kB" in decimal bytes: a body of 101 kB is over the limit in either reading of the unit. */
export const BODY_LIMIT_BYTES = 100_000;

/** Fastify's default, named because the 414 answer states it. */
const MAX_PARAM_LENGTH = 100;

/**
 * How long a shutdown lets requests in flight finish before it cuts their connections: a sale takes
 * milliseconds, and a client that stops reading or sending must not hold the shutdown, and the
 * database's clean close after it, forever.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

/** A client's x-request-id is kept only if it is safe to echo in a header and write into a log line. */
const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Builds the service on Fastify with its whole HTTP configuration, initialised but not listening.
 * `testingModule`: a compiled module built on `AppModule.forRoot(config)`, for tests that add
 * controllers or override providers (see test/support/test-app.ts).
 */
export async function createApp(config: AppConfig, testingModule?: TestingModule): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestId,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler,
    frameworkErrors,
  });
  // bodyParser false: Nest's own parsers would also accept form bodies; the API takes JSON only.
  // abortOnError false: a failed start must reach main.ts as an error, not abort the process.
  // autoFlushLogs false: main.ts reports that error once (one line for a refused data folder), so
  // Nest's exception handler must not print it first; the buffered logs are flushed below instead.
  const options: NestApplicationOptions = {
    bufferLogs: true,
    autoFlushLogs: false,
    bodyParser: false,
    abortOnError: false,
  };
  const app = testingModule
    ? testingModule.createNestApplication<NestFastifyApplication>(adapter, options)
    : await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, options);

  app.useLogger(app.get(Logger));
  app.flushLogs();
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalFilters(new HttpErrorFilter());
  app.useGlobalPipes(createValidationPipe());

  const fastify = app.getHttpAdapter().getInstance();
  acceptJsonBodiesOnly(fastify);
  const routes = app.get(RouteCatalog);
  // Registered before app.init() adds the routes, so /version lists what the router really serves
  // under /api/v1: the portal's static files are not API endpoints.
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(`/${API_PREFIX}/`)) routes.record(route.method, route.url);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    requestTaken();
    void reply.header('x-request-id', request.id);
    // Fastify leaves a GET's body unread: refused here, before anything answers as if it were not there.
    if (BODYLESS_METHODS.has(request.method) && hasBody(request)) return done(new BodyNotAllowedError(request.method));
    // Before any route, guard or query sees them: PostgreSQL cannot take such a text (docs/design.md).
    const refused = refuseTexts({
      ...(request.params as Record<string, unknown>),
      ...(request.query as Record<string, unknown>),
    });
    done(refused.length > 0 ? validationError(refused) : undefined);
  });

  fastify.addHook('preClose', (done) => {
    setTimeout(() => fastify.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    done();
  });
  servePortal(fastify);

  await app.init();
  app.get(OpenApiDocument).publish(() => withWebhookEvents(buildOpenApiDocument(app, API_PREFIX)));
  return app;
}

/**
 * A request Node's HTTP parser refuses never reaches Fastify's routes or our error filter; its answer
 * is still `{error, message}`, written on the socket, and the connection is closed.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', 'The request headers are over 16 kB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request was not received in time']
        : [400, 'Bad Request', 'MALFORMED_REQUEST', 'The request is not well-formed HTTP'];
  const body = JSON.stringify({ error: code, message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The router's refusals, which come before any hook or filter: a path segment over 100 characters, or not a URL. */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [status, code, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [HttpStatus.URI_TOO_LONG, 'URI_TOO_LONG', `A path segment is over ${MAX_PARAM_LENGTH} characters`]
      : [HttpStatus.BAD_REQUEST, 'MALFORMED_REQUEST', 'The request path is not a valid URL'];
  void reply.status(status).header('x-request-id', request.id).send({ error: code, message });
}

/** The methods whose routes read no body (HEAD answers a GET route). */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

function hasBody({ headers }: FastifyRequest): boolean {
  return (
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  );
}

function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Replaces Fastify's parsers (which also take text/plain) so every error comes out as `{error, message}`. */
function acceptJsonBodiesOnly(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  const invalidJson = () => new DomainError('INVALID_JSON', 'Request body is not valid JSON', HttpStatus.BAD_REQUEST);
  const options = { parseAs: 'string' as const, bodyLimit: BODY_LIMIT_BYTES };
  fastify.addContentTypeParser('application/json', options, (request, body: string, done) => {
    // An empty body counts as none: the route's validation then says which fields are missing.
    if (body.length === 0) return done(null, undefined);
    void parseJson(request, body, (error, value) => {
      if (error) return done(invalidJson());
      const refusal = refuseJson(value);
      if (refusal === undefined) return done(null, value);
      // JSON has no Infinity, yet `1e999` parses to it, and no amount, count or hash can hold it.
      done(refusal.kind === 'non-finite' ? invalidJson() : validationError([refusal.detail]));
    });
  });
  // Also reached when a body comes without any Content-Type.
  const unsupported = () =>
    new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the request body as JSON with Content-Type: application/json',
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(unsupported(), undefined));
}
