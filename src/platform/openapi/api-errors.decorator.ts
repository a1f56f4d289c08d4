import { ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { ErrorBody } from '../errors/domain-error';
import { ErrorBodyDto } from '../errors/error-body.response.dto';

const ERROR_CODES = Symbol('crcs:error-codes');

/** Error codes a route answers with under one status, each with when it happens: `{ NOT_FOUND: 'No such sale' }`. */
export type ErrorCodes = Record<string, string>;

/** One example body per code, so a client sees every `error` it must branch on. */
export function errorExamples(codes: ErrorCodes): Record<string, { summary: string; value: ErrorBody }> {
  return Object.fromEntries(
    Object.entries(codes).map(([error, when]) => [error, { summary: when, value: { error, message: when } }]),
  );
}

export function errorDescription(codes: ErrorCodes): string {
  return Object.entries(codes)
    .map(([error, when]) => `\`${error}\`: ${when}`)
    .join('\n\n');
}

/** The response of one status: always JSON, whatever the route's success answers are (CSV, HTML). */
export function errorResponse(codes: ErrorCodes): ResponseObject {
  const schema = { $ref: getSchemaPath(ErrorBodyDto) };
  return {
    description: errorDescription(codes),
    content: { 'application/json': { schema, examples: errorExamples(codes) } },
  };
}

/**
 * The errors a route answers with beyond those every route shares (401, 403, 429 and 503 for keyed
 * routes; 400, 413 and 415 for what a route reads: the document adds those, see openapi-document.ts),
 * by status: `@ApiErrors({ 404: { NOT_FOUND: 'No such sale' }, 409: { ALREADY_VOIDED: '…' } })`.
 */
export function ApiErrors(byStatus: Record<number, ErrorCodes>): MethodDecorator {
  return (target, key, descriptor) => {
    // Another ApiErrors on the route (`@Idempotent()` brings one) may document the same status. The
    // generator appends descriptions but replaces content, so the content carries every code so far.
    const holder = descriptor.value as object;
    const known = (Reflect.getMetadata(ERROR_CODES, holder) ?? {}) as Record<string, ErrorCodes>;
    const merged = { ...known };
    for (const [status, codes] of Object.entries(byStatus)) {
      merged[status] = { ...known[status], ...codes };
      ApiResponse({
        status: Number(status),
        description: errorDescription(codes),
        content: errorResponse(merged[status]).content,
      })(target, key, descriptor);
    }
    Reflect.defineMetadata(ERROR_CODES, merged, holder);
  };
}
