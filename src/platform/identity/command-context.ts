import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { EventMetadata } from '../event-store/event-store.port';
import { keyedPrincipal } from './current-principal.decorator';
import type { Principal } from './principal';

/** Who asked, and the request that asked: what every event's metadata records. */
export interface CommandContext {
  principal: Principal;
  correlationId: string;
}

export const EVENT_SCHEMA_VERSION = 1;

/**
 * The caller and the request id of a command route, as every event's metadata records them. The
 * request id (x-request-id) correlates the events with the access log; the request is also their cause.
 */
export const CurrentCommandContext = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CommandContext => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return { principal: keyedPrincipal(request, 'CurrentCommandContext'), correlationId: request.id };
  },
);

export function eventMetadata(context: CommandContext, merchantId?: string | null): EventMetadata {
  return {
    schemaVersion: EVENT_SCHEMA_VERSION,
    correlationId: context.correlationId,
    causationId: context.correlationId,
    actor: { keyId: context.principal.keyId, role: context.principal.role },
    ...(merchantId && { merchantId }),
  };
}
