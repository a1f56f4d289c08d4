import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import { DomainError, type ErrorBody } from './domain-error';

/** Codes the spec names differently from the HTTP status name; every other status uses its name (`NOT_FOUND`). */
const CODE_BY_STATUS: Partial<Record<number, string>> = {
  [HttpStatus.BAD_REQUEST]: 'VALIDATION_ERROR',
  [HttpStatus.TOO_MANY_REQUESTS]: 'RATE_LIMIT_EXCEEDED',
};

const INTERNAL_ERROR: ErrorResponse = {
  status: HttpStatus.INTERNAL_SERVER_ERROR,
  body: { error: 'INTERNAL_ERROR', message: 'Internal server error' },
};

interface ErrorResponse {
  status: number;
  body: ErrorBody;
}

/** The one place any failure becomes a response: always `{error, message}`, never a stack trace. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body } = toErrorResponse(exception);
    if (status >= 500) {
      // The stack goes to the log only, tied to the request by its id (set here, not taken from the
      // request context, which errors raised by Fastify before the handler may lack).
      PinoLogger.root.child({ reqId: request.id }).error({ err: exception }, 'unexpected error');
    }
    if (!reply.sent) void reply.status(status).send(body);
  }
}

function toErrorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof DomainError) {
    return { status: exception.status, body: exception.body() };
  }
  if (exception instanceof HttpException && exception.getStatus() !== Number(HttpStatus.INTERNAL_SERVER_ERROR)) {
    const status = exception.getStatus();
    const code = CODE_BY_STATUS[status] ?? HttpStatus[status] ?? 'HTTP_ERROR';
    return { status, body: { error: code, message: messageOf(exception) } };
  }
  return INTERNAL_ERROR;
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}
