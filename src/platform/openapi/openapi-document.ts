import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type {
  HeaderObject,
  OperationObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { API_KEY_SCHEME, ROLES_EXTENSION } from '../identity/roles.decorator';
import { READ_REPLICA_EXTENSION } from '../read-replica/api-data-as-of.decorator';
import { APPENDS_EXTENSION } from '../as-of-position';
import { ErrorBodyDto } from '../errors/error-body.response.dto';
import { LOG_POSITION_HEADER, MIN_POSITION_WAIT_MS } from '../projections/log-position';
import { errorDescription, errorExamples, errorResponse, type ErrorCodes } from './api-errors.decorator';

/** The version of the API clients program against (its major number moves on a breaking change), distinct from the engine's own release version. */
export const API_VERSION = '4.1.0';

/** The groups of operations, in the order the docs page shows them; every operation carries one of these tags. */
export const API_TAGS = [
  { name: 'Health', description: 'Liveness, readiness and the served routes; no key.' },
  { name: 'Merchants and keys', description: 'Onboarding merchants and issuing, listing and revoking API keys.' },
  {
    name: 'Jurisdictions',
    description: 'The cash rounding rule for a location: city, then county, then state, then the federal default.',
  },
  {
    name: 'Transactions',
    description:
      'Sales, overrides, voids, refunds and receipts. Every change is an entry of the hash-linked audit log.',
  },
  {
    name: 'Tips',
    description:
      'Cash and card tips, adjustments, payouts, pools and the tip-credit check; fractions of a cent always round up.',
  },
  {
    name: 'Audit',
    description:
      'The hash-linked audit log: query, verify, export for offline verification, and the checkpoint signing key.',
  },
  {
    name: 'Risk and analytics',
    description: 'Merchant risk profiles, the fraud overview, void, override and tip analytics, read from projections.',
  },
  { name: 'Export', description: 'CSV export of transactions.' },
  {
    name: 'Webhooks',
    description:
      'Signed webhooks (Standard Webhooks 1.0): endpoints, their deliveries and replays. The events and their payloads are under `webhooks`.',
  },
  { name: 'Documentation', description: 'This document and its browsable page; no key.' },
] as const;

const KEYED_ROUTE_ERRORS: Record<number, ErrorCodes> = {
  401: { UNAUTHORIZED: 'The x-api-key header is missing, or names an unknown or revoked key' },
  403: { FORBIDDEN: "The key's role may not call this route, or the key is scoped to another merchant" },
  429: { RATE_LIMIT_EXCEEDED: "The key's requests in this UTC hour are over its limit" },
  503: { SERVICE_UNAVAILABLE: 'The database is unavailable; retry shortly' },
};
/**
 * A keyed write whose commit lost its connection (pg-database.ts): it may have been recorded. Or one
 * refused because the log's head was moved behind the service's back (sql-event-store.ts): nothing was recorded.
 */
const WRITE_ROUTE_ERRORS: Record<number, ErrorCodes> = {
  503: {
    OUTCOME_UNKNOWN:
      'The connection to the database was lost while the request was being committed: it may have been recorded. Retry with the same Idempotency-Key',
    CHAIN_ALARM:
      "The audit log was changed behind the service's back (a chain alarm is raised): nothing is recorded until an operator has looked",
  },
};
/**
 * Node's HTTP parser refuses a 431 before any route runs; the service still answers `{error, message}`.
 * A 500 is a fault of the service's (no request a client can send should cause one), logged with its request id.
 */
const EVERY_ROUTE_ERRORS: Record<number, ErrorCodes> = {
  431: { HEADERS_TOO_LARGE: 'The request headers are over 16 kB' },
  500: { INTERNAL_ERROR: 'An unexpected failure of the service, logged with the request id; report it' },
};
/** The router refuses these before any route runs (app.factory.ts frameworkErrors). */
const PATH_PARAMETER_ERRORS: Record<number, ErrorCodes> = {
  400: { MALFORMED_REQUEST: 'The path is not a valid URL (a bad percent-encoding)' },
  414: { URI_TOO_LONG: 'A path parameter is over 100 characters' },
};
/** A GET or DELETE with a body, refused before routing (app.factory.ts). */
const BODYLESS_ROUTE_ERRORS: Record<number, ErrorCodes> = {
  400: {
    BODY_NOT_ALLOWED:
      'The request carried a body: a GET or DELETE takes none (send parameters in the path and query string)',
  },
};
/** A read that takes `min_position` (src/platform/as-of-position.ts): its read models did not reach it in time. */
const MIN_POSITION_ERRORS: Record<number, ErrorCodes> = {
  503: {
    LOG_POSITION_NOT_REACHED: `The read models of the answer did not reach min_position within ${MIN_POSITION_WAIT_MS / 1000} s; \`log_position\` says where they were. Retry after Retry-After`,
  },
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
    .addServer(`{scheme}://{host}/${prefix}`, 'The service; by default `npm start` on this machine', {
      scheme: { default: 'http', enum: ['http', 'https'], description: 'https behind a TLS-terminating proxy' },
      host: { default: 'localhost:3000', description: 'Host name and port the service is reached at' },
    })
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, API_KEY_SCHEME);
  for (const tag of API_TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    ignoreGlobalPrefix: true,
    autoTagControllers: false,
    extraModels: [ErrorBodyDto],
  });
  for (const { route, operation } of operations(document)) {
    const roles = (operation as { [ROLES_EXTENSION]?: string[] })[ROLES_EXTENSION];
    if (roles) {
      operation.description = [operation.description, `Roles: ${roles.map((role) => `\`${role}\``).join(', ')}.`]
        .filter(Boolean)
        .join('\n\n');
      addErrors(operation, KEYED_ROUTE_ERRORS);
      if (!route.startsWith('GET ')) addErrors(operation, WRITE_ROUTE_ERRORS);
    } else {
      // Open to anyone: the document's one scheme does not apply.
      operation.security = [];
    }
    addErrors(operation, EVERY_ROUTE_ERRORS);
    if (/^(GET|DELETE) /.test(route)) addErrors(operation, BODYLESS_ROUTE_ERRORS);
    if ((operation.parameters?.length ?? 0) > 0 || operation.requestBody) addErrors(operation, INPUT_ERRORS);
    if (operation.parameters?.some((parameter) => 'in' in parameter && parameter.in === 'path'))
      addErrors(operation, PATH_PARAMETER_ERRORS);
    if (operation.requestBody) addErrors(operation, BODY_ERRORS);
    if (takesMinPosition(operation)) addErrors(operation, MIN_POSITION_ERRORS);
    addHeaders(operation, { keyed: roles !== undefined });
  }
  closeRequestBodies(document);
  enumerateErrorCodes(document);
  // package.json says UNLICENSED; SPDX names a license of one's own with a LicenseRef-.
  document.info.license = {
    name: 'Proprietary: all rights reserved',
    identifier: 'LicenseRef-Proprietary',
  } as OpenAPIObject['info']['license'];
  return withoutNullable(document) as OpenAPIObject;
}

const integer = (description: string): HeaderObject => ({ description, schema: { type: 'integer' } });
const HEADERS = {
  requestId: {
    'x-request-id': {
      description:
        'The request id: the client’s own `x-request-id` when it is safe to echo, else one the service made. It is in the access log and in the metadata of every entry the request appended.',
      schema: { type: 'string' },
    },
  },
  rateLimit: {
    'X-RateLimit-Limit': integer('Requests the key may make per UTC hour'),
    'X-RateLimit-Remaining': integer('Requests the key has left in this UTC hour'),
    'X-RateLimit-Reset': integer('When the hour ends and the budget is refilled, in seconds since the Unix epoch'),
  },
  retryAfter: {
    'Retry-After': integer(
      'Seconds to wait: until the key’s budget is refilled, or (`VERIFICATION_IN_PROGRESS`) for the running verification',
    ),
  },
  retryInProgress: {
    'Retry-After': integer('With `IDEMPOTENCY_KEY_IN_PROGRESS` only: seconds to wait before sending the request again'),
  },
  dataAsOf: {
    'X-Data-As-Of': {
      description:
        'Only when the answer was read from the read replica (READ_DATABASE_URL): it shows the data as the primary held it at this ' +
        'instant (ISO 8601, UTC, to the millisecond), at most READ_MAX_LAG_MS old. Absent: read from the primary, current when read',
      schema: { type: 'string', format: 'date-time' },
    },
  },
  logPosition: {
    [LOG_POSITION_HEADER]: integer(
      'The log position the read models of this answer reflect: every entry up to it, none after. A write answers with its `chain_position`; `min_position` waits for it',
    ),
  },
  logPositionWritten: {
    [LOG_POSITION_HEADER]: integer(
      "The log position of the last entry this write appended (absent when it appended none): send it as `min_position` to a list, analytics or export to read the write there. A replayed answer carries the first answer's",
    ),
  },
  retryLogPosition: {
    'Retry-After': integer('With `LOG_POSITION_NOT_REACHED` only: seconds to wait before reading again'),
  },
  replayed: {
    'Idempotent-Replayed': {
      description:
        '`true` when this answer repeats the one recorded for the same `Idempotency-Key` and request: nothing was recorded again',
      schema: { type: 'string', enum: ['true'] },
    },
  },
} satisfies Record<string, Record<string, HeaderObject>>;

/**
 * The headers the HTTP layer adds, on the answers it adds them to: a request id on every one (but 431); the
 * rate limit on every keyed answer once the key is known (not 401; a 503 has them when the database went
 * away after the key was looked up, as a lost commit's does); Retry-After with 429, and with an idempotent
 * route's 409; the replay mark on the success of an idempotent route; X-Data-As-Of on the success of a
 * route whose answer may be read from the replica; X-Log-Position on the success of a route that
 * takes `min_position` or appends to the log, and Retry-After on a 503 LOG_POSITION_NOT_REACHED.
 */
function addHeaders(operation: OperationObject, { keyed }: { keyed: boolean }): void {
  const idempotent = operation.parameters?.some(
    (parameter) => 'name' in parameter && parameter.name === 'Idempotency-Key',
  );
  const fromReplica = (operation as { [READ_REPLICA_EXTENSION]?: boolean })[READ_REPLICA_EXTENSION] === true;
  const minPosition = takesMinPosition(operation);
  const appends = (operation as { [APPENDS_EXTENSION]?: boolean })[APPENDS_EXTENSION] === true;
  const waits = (operation.responses['503'] as ResponseObject | undefined)?.content?.['application/json']?.examples
    ?.LOG_POSITION_NOT_REACHED;
  delete (operation as { [APPENDS_EXTENSION]?: boolean })[APPENDS_EXTENSION];
  for (const [status, response] of Object.entries(operation.responses) as Array<[string, ResponseObject]>) {
    // Written on the socket before Fastify has a request: no header but the status line's.
    if (status === '431') continue;
    response.headers = {
      ...response.headers,
      ...HEADERS.requestId,
      ...(keyed && status !== '401' && HEADERS.rateLimit),
      ...(status === '429' && HEADERS.retryAfter),
      ...(idempotent && /^2\d\d$/.test(status) && HEADERS.replayed),
      ...(fromReplica && /^2\d\d$/.test(status) && HEADERS.dataAsOf),
      ...(idempotent && status === '409' && HEADERS.retryInProgress),
      ...(minPosition && /^2\d\d$/.test(status) && HEADERS.logPosition),
      ...(appends && /^2\d\d$/.test(status) && HEADERS.logPositionWritten),
      ...(waits && status === '503' && HEADERS.retryLogPosition),
    };
  }
}

/**
 * The validation pipe refuses a field it does not know in any body (`forbidNonWhitelisted`), so every
 * schema a request body reaches, nested ones included, is closed: a generated client or a mock
 * server refuses the same bodies the service does.
 */
function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const name = ref.split('/').pop()!;
      if (seen.has(name)) return;
      seen.add(name);
      const schema = schemas[name] as Record<string, unknown>;
      if (schema.properties) schema.additionalProperties = false;
      return visit(schema);
    }
    Object.values(value).forEach(visit);
  };
  for (const { operation } of operations(document))
    visit((operation.requestBody as { content?: unknown } | undefined)?.content);
}

/** Each operation of the document with its route as the router names it (`POST /transaction`). */
export function operations(document: OpenAPIObject): Array<{ route: string; operation: OperationObject }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) => {
      const operation = item[method];
      return operation ? [{ route: `${method.toUpperCase()} ${path}`, operation }] : [];
    }),
  );
}

/** `ErrorBody.error` lists every code an operation documents, so a generated client gets them as a union to branch on. */
function enumerateErrorCodes(document: OpenAPIObject): void {
  const codes = new Set<string>();
  for (const { operation } of operations(document)) {
    for (const response of Object.values(operation.responses) as ResponseObject[]) {
      const json = response.content?.['application/json'];
      if (json?.schema && '$ref' in json.schema && json.schema.$ref === getSchemaPath(ErrorBodyDto))
        Object.keys(json.examples ?? {}).forEach((code) => codes.add(code));
    }
  }
  const errorBody = document.components!.schemas![getSchemaPath(ErrorBodyDto).split('/').pop()!] as SchemaObject;
  errorBody.properties!.error = { ...errorBody.properties!.error, enum: [...codes].sort() };
}

function takesMinPosition(operation: OperationObject): boolean {
  return operation.parameters?.some((parameter) => 'name' in parameter && parameter.name === 'min_position') ?? false;
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
    return {
      ...converted,
      type: [converted.type, 'null'],
      ...(Array.isArray(converted.enum) && { enum: [...(converted.enum as unknown[]), null] }),
    };
  }
  const { description, type: _object, ...inner } = converted;
  // `allOf` with one member is how the generator puts a description beside a `$ref`: the member alone says the same.
  const schema: unknown =
    Array.isArray(inner.allOf) && inner.allOf.length === 1 && Object.keys(inner).length === 1 ? inner.allOf[0] : inner;
  return { ...(description !== undefined && { description }), anyOf: [schema, { type: 'null' }] };
}
