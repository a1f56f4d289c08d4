import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal';

const principals = new WeakMap<FastifyRequest, Principal>();

/** Called by the auth guard once the key checked out. */
export function attachPrincipal(request: FastifyRequest, principal: Principal): void {
  principals.set(request, principal);
}

/** The caller of a keyed request, or undefined on a `@Public()` route. */
export function principalOf(request: FastifyRequest): Principal | undefined {
  return principals.get(request);
}

/**
 * The authenticated caller of a keyed route. On a `@Public()` route there is none: asking for it
 * there is a programming error, so it fails loudly (500) instead of handing out `undefined`.
 */
export function keyedPrincipal(request: FastifyRequest, decorator: string): Principal {
  const principal = principalOf(request);
  if (!principal) throw new Error(`@${decorator}() used on a route without an authenticated key`);
  return principal;
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal =>
  keyedPrincipal(context.switchToHttp().getRequest<FastifyRequest>(), 'CurrentPrincipal'),
);
