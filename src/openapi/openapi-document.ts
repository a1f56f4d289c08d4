import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { API_KEY_SCHEME, ROLES_EXTENSION } from '../auth/roles.decorator';
import { ErrorBody } from '../common/errors/domain-error';
import { API_VERSION } from '../health/version.controller';
import { errorDescription, errorExamples, errorResponse, type ErrorCodes } from './api-errors.decorator';

/** The groups of operations, in the order the docs page shows them; every operation carries one of these tags. */
export const API_TAGS = [
  { name: 'Health', description: 'Liveness, readiness and the served routes; no key.' },
  { name: 'Merchants and keys', description: 'Onboarding merchants and issuing, listing and revoking API keys.' },
  { name: 'Jurisdictions', description: 'The cash rounding rule for a location: city, then county, then state, then the federal default.' },
  { name: 'Transactions', description: 'Sales, overrides, voids, refunds and receipts. Every change is an entry of the hash-linked audit log.' },
  { name: 'Tips', description: 'Cash and card tips, adjustments, payouts, pools and the tip-credit check; fractions of a cent always round up.' },
  { name: 'Audit', description: 'The hash-linked audit log: query, verify, export for offline verification, and the checkpoint signing key.' },
  { name: 'Risk and analytics', description: 'Merchant risk profiles, the fraud overview, void, override and tip analytics, read from projections.' },
  { name: 'Export', description: 'CSV export of transactions.' },
  { name: 'Documentation', description: 'This document and its browsable page; no key.' },
] as const;

const KEYED_ROUTE_ERRORS: Record<number, ErrorCodes> = {
  401: { UNAUTHORIZED: 'The x-api-key header is missing, or names an unknown or revoked key' },
  403: { FORBIDDEN: "The key's role may not call this route, or the key is scoped to another merchant" },
  429: { RATE_LIMIT_EXCEEDED: "The key's requests in this UTC hour are over its limit" },
  503: { SERVICE_UNAVAILABLE: 'The database is unavailable; retry shortly' },
};
const INPUT_ERRORS: Record<number, ErrorCodes> = {
  400: { VALIDATION_ERROR: 'A path, query, header or body value is invalid; `details` names each field' },
};
const BODY_ERRORS: Record<number, ErrorCodes> = {
  400: { INVALID_JSON: 'The body is not valid JSON' },
  413: { PAYLOAD_TOO_LARGE: 'The body is over 100 kB' },
  415: { UNSUPPORTED_MEDIA_TYPE: 'The body was not sent with Content-Type: application/json' },
};

/**
 * The OpenAPI 3.1 document of every route the app serves, from the routes' own decorators. Paths are
 * relative to the server `/api/v1`, as in the interface spec. The errors every route of a kind
 * shares come from the HTTP layer, not from the route, so they are added here, once.
 */
export function buildOpenApiDocument(app: INestApplication, prefix: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cash Rounding Compliance Service')
    .setDescription(
      'Resolves the cash rounding rule of a U.S. location, rounds cash totals to it, and keeps a hash-linked audit log ' +
        'that an auditor can verify offline. Amounts are integer cents. Send the key in the `x-api-key` header; ' +
        'each operation lists the roles whose keys may call it.',
    )
    .setVersion(API_VERSION)
    .addServer(`/${prefix}`)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, API_KEY_SCHEME);
  for (const tag of API_TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    ignoreGlobalPrefix: true,
    autoTagControllers: false,
    extraModels: [ErrorBody],
    operationIdFactory: operationId,
  });
  for (const { operation } of operations(document)) {
    const roles = (operation as { [ROLES_EXTENSION]?: string[] })[ROLES_EXTENSION];
    if (roles) {
      operation.description = [operation.description, `Roles: ${roles.map((role) => `\`${role}\``).join(', ')}.`].filter(Boolean).join('\n\n');
      addErrors(operation, KEYED_ROUTE_ERRORS);
    }
    if ((operation.parameters?.length ?? 0) > 0 || operation.requestBody) addErrors(operation, INPUT_ERRORS);
    if (operation.requestBody) addErrors(operation, BODY_ERRORS);
  }
  return withoutNullable(document) as OpenAPIObject;
}

/** `RecordTransactionController.record` → `RecordTransaction_record`. */
export const operationId = (controller: string, method: string) => `${controller.replace(/Controller$/, '')}_${method}`;

/** Each operation of the document with its route as the router names it (`POST /transaction`). */
export function operations(document: OpenAPIObject): Array<{ route: string; operation: OperationObject }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) => {
      const operation = item[method];
      return operation ? [{ route: `${method.toUpperCase()} ${path}`, operation }] : [];
    }),
  );
}

/** Adds each code to the operation's response of its status, keeping what the route itself says. */
function addErrors(operation: OperationObject, byStatus: Record<number, ErrorCodes>): void {
  for (const [status, codes] of Object.entries(byStatus)) {
    const existing = operation.responses[status] as ResponseObject | undefined;
    const json = existing?.content?.['application/json'];
    if (!existing || !json) {
      operation.responses[status] = errorResponse(codes);
      continue;
    }
    const missing = Object.fromEntries(Object.entries(codes).filter(([code]) => !json.examples?.[code]));
    if (Object.keys(missing).length === 0) continue;
    json.examples = { ...json.examples, ...errorExamples(missing) };
    existing.description = [existing.description, errorDescription(missing)].filter(Boolean).join('\n\n');
  }
}

/**
 * The generator writes OpenAPI 3.0's `nullable: true`, which 3.1 dropped: JSON Schema says it with
 * `type: [T, 'null']`, or, beside a `$ref` or `allOf`, with `anyOf` and `{type: 'null'}`.
 */
function withoutNullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullable);
  if (typeof value !== 'object' || value === null) return value;
  const { nullable, ...rest } = value as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, withoutNullable(inner)]));
  if (nullable !== true) return converted;
  // Beside `allOf` (how the generator nests a class), `type: 'object'` is no type of its own.
  if (typeof converted.type === 'string' && !('allOf' in converted) && !('$ref' in converted)) {
    return { ...converted, type: [converted.type, 'null'], ...(Array.isArray(converted.enum) && { enum: [...converted.enum, null] }) };
  }
  const { description, type: _object, ...schema } = converted;
  return { ...(description !== undefined && { description }), anyOf: [schema, { type: 'null' }] };
}
