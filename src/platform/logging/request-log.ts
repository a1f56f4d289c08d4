import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import { pino, type DestinationStream, type Level, type Logger as Pino } from 'pino';
import type { LogLevel } from '../config/config';

/** The id of the request being served, for the lines logged while it runs. */
const requestIds = new AsyncLocalStorage<string>();

/** The service's one pino logger: every line, the access log's and Nest's, goes through it. */
export class RootLogger {
  readonly pino: Pino;

  /** `destination`: standard output unless given (a test reads the lines). */
  constructor(level: LogLevel, destination?: DestinationStream) {
    this.pino = pino(
      { level, redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } },
      destination,
    );
  }
}

/** nestjs-pino's PinoLogger, whose lines carry the reqId of the request they are logged in. */
class RequestPinoLogger extends PinoLogger {
  constructor(private readonly root: Pino) {
    // The logger passed here is only PinoLogger's fallback; the getter below decides every line's.
    super({ pinoHttp: { logger: root } });
  }

  override get logger(): Pino {
    const reqId = requestIds.getStore();
    // A child only for the rare line logged inside a request: most requests log just their access line.
    return reqId === undefined ? this.root : this.root.child({ reqId });
  }
}

/** Nest's logger (app.useLogger): nestjs-pino's formatting of Nest's calls, over the root logger. */
export function nestLogger(root: RootLogger): Logger {
  return new Logger(new RequestPinoLogger(root.pino), {});
}

/** The requests that get an access line: those under the API prefix, matched as Nest matched its middleware there (decoded, any case). */
function underPrefix(url: string, prefix: string): boolean {
  if (url.startsWith(`/${prefix}/`)) return true;
  let path = url.replace(/[?#].*$/s, '');
  // An absolute-form target ("GET http://host/path HTTP/1.1") is routed by its path.
  const absolute = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  try {
    path = decodeURI(path);
  } catch {
    return false;
  }
  path = path.toLowerCase();
  return path === `/${prefix}` || path.startsWith(`/${prefix}/`);
}

/**
 * One access line per request under the API prefix, once its response is closed, and the request's
 * id bound for every line logged while it runs. Done in a Fastify hook rather than pino-http as Nest
 * middleware: the same lines, without middie's per-request machinery or a child logger per request.
 * Register it after the hooks that refuse a request outright, which get no access line.
 */
export function logRequests(fastify: FastifyInstance, root: RootLogger, prefix: string): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!underPrefix(request.url, prefix)) return done();
    const start = Date.now();
    // Read now: once a client hangs up, its socket no longer has an address.
    const req = {
      id: request.id,
      method: request.method,
      url: request.url,
      query: request.query,
      headers: request.headers,
      remoteAddress: request.socket.remoteAddress,
      remotePort: request.socket.remotePort,
    };
    reply.raw.once('close', () => writeAccessLine(root.pino, req, request.raw, reply.raw, Date.now() - start));
    requestIds.run(request.id, done);
  });
}

/** The line pino-http wrote (quietReqLogger, our level rule): error for a 5xx or a failed response, warn for a 4xx. */
function writeAccessLine(log: Pino, req: { id: string }, request: IncomingMessage, response: ServerResponse, responseTime: number): void {
  const failed = response.errored ?? (response.statusCode >= 500 ? new Error(`failed with status code ${response.statusCode}`) : undefined);
  const level: Level = failed ? 'error' : response.statusCode >= 400 ? 'warn' : 'info';
  const res = { statusCode: response.headersSent ? response.statusCode : null, headers: response.getHeaders() };
  if (failed) return log[level]({ reqId: req.id, req, res, err: failed, responseTime }, 'request errored');
  const completed = !request.readableAborted && response.writableEnded;
  log[level]({ reqId: req.id, req, res, responseTime }, completed ? 'request completed' : 'request aborted');
}
