import { setTimeout as sleep } from 'node:timers/promises';
import {
  applyDecorators,
  createParamDecorator,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { principalOf } from '../identity/current-principal.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { DomainError } from '../errors/domain-error';
import { validationError } from '../errors/validation.pipe';
import { LOG_POSITION_HEADER } from '../projections/log-position';
import {
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  IdempotencyKeyTakenError,
  IdempotencyStore,
  idempotencyScope,
  requestFingerprint,
  type IdempotentRequest,
  type RecordedResponse,
} from './idempotency';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer that repeats a recorded one, so a client can tell a retry from a first run. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** Printable ASCII without spaces, as long as a UUID or any sane client token needs. */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

const idempotentRequests = new WeakMap<FastifyRequest, IdempotentRequest>();

/** How long a twin waits for the first request with its key (docs/design.md: bounded), and the Retry-After it gets after. */
const TWIN_WAIT_MS = 5000;
const RETRY_AFTER_SECONDS = 1;

/**
 * `Idempotency-Key` for a POST route: `@Idempotent()` on the route, and
 * its handler saves its answer with IdempotencyStore.save inside its append transaction, taking
 * the request from `@CurrentIdempotentRequest()`.
 *
 * A recorded answer for the same key and request is sent again without running the route; the
 * same key with another request is a 409. A twin sent while the first is still running, here or in
 * another process, answers what the first recorded, never the business error the first one's success
 * causes (`ALREADY_VOIDED`), or 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  /** The requests of this process still running, by scope and key: a twin waits for the first. */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return next.handle();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
      throw validationError([
        {
          field: 'Idempotency-Key',
          messages: ['Idempotency-Key must be 1 to 255 printable ASCII characters without spaces'],
        },
      ]);
    }
    const reply = http.getResponse<FastifyReply>();
    const idempotent: IdempotentRequest = {
      // The guard established the caller before any interceptor runs.
      scope: idempotencyScope(principalOf(request)!),
      key,
      fingerprint: requestFingerprint(request.method, request.url, request.body),
      status: reply.statusCode,
    };
    return from(this.once(idempotent, request, reply, next));
  }

  private async once(
    idempotent: IdempotentRequest,
    request: FastifyRequest,
    reply: FastifyReply,
    next: CallHandler,
  ): Promise<unknown> {
    const slot = JSON.stringify([idempotent.scope, idempotent.key]);
    const waitUntil = Date.now() + TWIN_WAIT_MS;
    for (let first = this.running.get(slot); first; first = this.running.get(slot)) {
      if (!(await settlesWithin(first, waitUntil - Date.now()))) throw inProgress(idempotent, reply);
    }
    const run = this.run(idempotent, request, reply, next);
    this.running.set(slot, run);
    try {
      return await run;
    } finally {
      if (this.running.get(slot) === run) this.running.delete(slot);
    }
  }

  private async run(
    idempotent: IdempotentRequest,
    request: FastifyRequest,
    reply: FastifyReply,
    next: CallHandler,
  ): Promise<unknown> {
    const recorded = await this.store.find(idempotent.scope, idempotent.key);
    if (recorded) return replay(idempotent, recorded, reply);
    idempotentRequests.set(request, idempotent);
    try {
      return await lastValueFrom(next.handle());
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTakenError || error instanceof DomainError)) throw error;
      // A twin in another process may have been first: its record beat ours, or its success is why
      // ours failed (ALREADY_VOIDED). Its record was committed with its events, so it is there to read.
      // So is ours if a commit whose outcome was lost (OUTCOME_UNKNOWN) went through.
      const winner = await this.store.find(idempotent.scope, idempotent.key).catch(() => {
        // Unreadable (the database is still away): the first failure says more than the lookup's.
        throw error;
      });
      if (winner) return replay(idempotent, winner, reply);
      if (error instanceof IdempotencyKeyTakenError) throw inProgress(idempotent, reply);
      throw error;
    }
  }
}

async function settlesWithin(running: Promise<unknown>, ms: number): Promise<boolean> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      running.then(
        () => true,
        () => true,
      ),
      sleep(ms, false, { signal: timer.signal }),
    ]);
  } finally {
    timer.abort();
  }
}

/** The first request's record could not be read in time (still running, or expired in between): the client retries. */
function inProgress(idempotent: IdempotentRequest, reply: FastifyReply): IdempotencyKeyInProgressError {
  void reply.header('retry-after', RETRY_AFTER_SECONDS);
  return new IdempotencyKeyInProgressError(idempotent.key);
}

function replay(idempotent: IdempotentRequest, recorded: RecordedResponse, reply: FastifyReply): unknown {
  if (recorded.fingerprint !== idempotent.fingerprint) throw new IdempotencyKeyReusedError(idempotent.key);
  void reply.status(recorded.status).header(REPLAYED_HEADER, 'true');
  if (recorded.logPosition !== null) void reply.header(LOG_POSITION_HEADER, String(recorded.logPosition));
  return recorded.body;
}

/** The route's idempotent request, or undefined when the client sent no `Idempotency-Key`. */
export const CurrentIdempotentRequest = createParamDecorator(
  (_data: unknown, context: ExecutionContext): IdempotentRequest | undefined =>
    idempotentRequests.get(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** A POST route that takes an `Idempotency-Key`, with the header and its conflicts in the OpenAPI document. */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Retrying with the same key and the same request within 24 hours answers the recorded response again ' +
        '(with `Idempotent-Replayed: true`) instead of recording twice.',
      schema: { type: 'string', pattern: KEY_FORMAT.source, example: '7f1c2a9e-pos-17-000123' },
    }),
    ApiErrors({
      409: {
        IDEMPOTENCY_KEY_REUSED: 'The Idempotency-Key was used for a different request in the last 24 hours',
        IDEMPOTENCY_KEY_IN_PROGRESS: 'A request with this Idempotency-Key is being processed; retry it',
      },
    }),
  );
