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
import { principalOf } from '../auth/current-principal.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { validationError } from './errors/validation.pipe';
import {
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  IdempotencyKeyTakenError,
  IdempotencyStore,
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

/**
 * `Idempotency-Key` for a POST route: `@Idempotent()` on the route, and
 * its handler saves its answer with IdempotencyStore.save inside its append transaction, taking
 * the request from `@CurrentIdempotentRequest()`.
 *
 * A recorded answer for the same key and request is sent again without running the route; the
 * same key with another request is a 409. A concurrent twin that lost the race on the unique key
 * (its events rolled back) answers what the winner recorded.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return next.handle();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
      throw validationError([{ field: 'Idempotency-Key', messages: ['Idempotency-Key must be 1 to 255 printable ASCII characters without spaces'] }]);
    }
    const reply = http.getResponse<FastifyReply>();
    const idempotent: IdempotentRequest = {
      // The caller is its API key, which the guard established before any interceptor runs.
      scope: principalOf(request)!.keyId,
      key,
      fingerprint: requestFingerprint(request.method, request.url, request.body),
      status: reply.statusCode,
    };
    return from(this.once(idempotent, request, reply, next));
  }

  private async once(idempotent: IdempotentRequest, request: FastifyRequest, reply: FastifyReply, next: CallHandler): Promise<unknown> {
    const recorded = await this.store.find(idempotent.scope, idempotent.key);
    if (recorded) return replay(idempotent, recorded, reply);
    idempotentRequests.set(request, idempotent);
    try {
      return await lastValueFrom(next.handle());
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTakenError)) throw error;
      const winner = await this.store.find(idempotent.scope, idempotent.key);
      if (!winner) throw new IdempotencyKeyInProgressError(idempotent.key);
      return replay(idempotent, winner, reply);
    }
  }
}

function replay(idempotent: IdempotentRequest, recorded: RecordedResponse, reply: FastifyReply): unknown {
  if (recorded.fingerprint !== idempotent.fingerprint) throw new IdempotencyKeyReusedError(idempotent.key);
  void reply.status(recorded.status).header(REPLAYED_HEADER, 'true');
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
