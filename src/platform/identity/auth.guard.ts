import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/config';
import { ForbiddenError, UnauthorizedError } from '../errors/request.errors';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { Authenticator } from './authenticator';
import { attachPrincipal } from './current-principal.decorator';
import type { Principal, Role } from './principal';
import { READS_ONLY_KEY } from './reads-only.decorator';
import { LOG_PUBLIC_KEY, PUBLIC_KEY, ROLES_KEY } from './roles.decorator';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The global gate of every route, in this order:
 * 1. `@Public()`, or `@PublicWhenLogPublic()` with LOG_PUBLIC=true: open, nothing else applies.
 * 2. The key: missing, unknown or revoked is 401, counted against the client address: past
 *    AUTH_FAILURES_PER_HOUR every request from that address is 429 until the hour ends, key or not.
 * 3. The key's hourly budget: X-RateLimit-* headers on every keyed answer, 429 when spent.
 * 4. The route's `@Roles`: a route with none is closed to every key (403), so a route added
 *    without a rule is caught rather than left open. Auditor keys never pass a method that
 *    writes unless the route is `@ReadsOnly()`.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly rateLimiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    if (this.config.logPublic && this.reflector.getAllAndOverride<boolean>(LOG_PUBLIC_KEY, targets)) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    this.rateLimiter.refuseBlockedAddress(request.ip, reply);
    const principal = await this.authenticator.authenticate(request.headers['x-api-key']);
    if (!principal) {
      await this.rateLimiter.countFailedAuthentication(request.ip, reply);
      throw new UnauthorizedError();
    }
    attachPrincipal(request, principal);

    await this.rateLimiter.enforce(principal, reply);

    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets) ?? [];
    const readsOnly =
      READ_METHODS.has(request.method) || this.reflector.getAllAndOverride<boolean>(READS_ONLY_KEY, targets);
    if (!permits(principal, roles, readsOnly)) throw new ForbiddenError();
    return true;
  }
}

function permits(principal: Principal, roles: readonly Role[], readsOnly: boolean): boolean {
  if (principal.role === 'auditor' && !readsOnly) return false;
  return roles.includes(principal.role);
}
