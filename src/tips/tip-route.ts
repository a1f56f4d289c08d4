import { applyDecorators, createParamDecorator, Post, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '../platform/identity/command-context';
import { principalOf } from '../platform/identity/current-principal.decorator';
import { Roles } from '../platform/identity/roles.decorator';
import { Idempotent } from '../platform/idempotency/idempotency.interceptor';

/** A tip operation: a point-of-sale write (merchant and partner keys, see the README's permissions) that takes an Idempotency-Key. */
export const TipPost = (path: string) => applyDecorators(Post(path), Roles('merchant', 'partner'), Idempotent());

/** The caller and the request id, as every event's metadata records them. */
export const TipCommandContext = createParamDecorator((_data: unknown, context: ExecutionContext): CommandContext => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const principal = principalOf(request);
  if (!principal) throw new Error('@TipCommandContext() used on a route without an authenticated key');
  return { principal, correlationId: request.id };
});
