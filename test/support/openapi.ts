import addFormats from 'ajv-formats';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** A response as a test received it; `path` relative to /api/v1, query string included. */
export interface ReceivedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  /** Names in lower case. */
  headers: Record<string, string>;
  body: unknown;
}

/** Headers the HTTP layer or a route adds that a client may act on: each one sent must be documented on its response. */
const DOCUMENTED_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
  'content-disposition',
  'x-data-as-of',
];

const COMPONENTS = 'openapi';

const byDocument = new Map<string, ResponseConformance>();

/**
 * Checks responses against the service's own OpenAPI document: the status must be documented for
 * the operation, the headers a client acts on too, the media type too, and a JSON body must validate against its schema. Objects are
 * checked closed (`unevaluatedProperties: false`), so a field the service sends but the document
 * does not describe is caught; the published document itself stays open to additions.
 */
export class ResponseConformance {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ path: string; pattern: RegExp; segments: string[] }>;

  constructor(readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addVocabulary(['example', 'xml', 'externalDocs']);
    this.ajv.addSchema({ $id: COMPONENTS, $defs: closed(rewriteRefs(document.components?.schemas ?? {})) });
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        segments: path.split('/'),
        pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
      }))
      .sort((a, b) => byRouterPriority(a.segments, b.segments));
  }

  /**
   * The checker of the document the app at `baseUrl` serves: one per distinct document in a test
   * file, since apps configured alike serve the same one and compiling its validators cost more CPU
   * than the requests they check.
   */
  static async fetch(baseUrl: string): Promise<ResponseConformance> {
    const response = await fetch(`${baseUrl}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    const text = await response.text();
    let conformance = byDocument.get(text);
    if (!conformance) {
      conformance = new ResponseConformance(JSON.parse(text) as OpenAPIObject);
      byDocument.set(text, conformance);
    }
    return conformance;
  }

  /** The template the router would match `path` to, as the document spells it (`/transaction/{id}`). */
  route(path: string): string | undefined {
    const bare = path.split('?')[0];
    return this.templates.find((template) => template.pattern.test(bare))?.path;
  }

  operation(method: string, template: string): OperationObject | undefined {
    return this.document.paths[template]?.[method.toLowerCase() as 'get'];
  }

  /** Every way `received` departs from the document; empty when it conforms. */
  problems(received: ReceivedResponse): string[] {
    const template = this.route(received.path);
    const operation = template && this.operation(received.method, template);
    if (!operation) {
      // Not an operation of the document: only the router's own 404 may answer it.
      return received.status === 404
        ? this.check('not-found', { $ref: `#/components/schemas/ErrorBody` }, received.body)
        : [];
    }
    const where = `${received.method} ${template} → ${received.status}`;
    const response = operation.responses[String(received.status)] as ResponseObject | undefined;
    if (!response)
      return [`${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const documented = Object.keys(response.headers ?? {}).map((name) => name.toLowerCase());
    const undocumented = DOCUMENTED_HEADERS.filter((name) => name in received.headers && !documented.includes(name));
    if (undocumented.length > 0) return [`${where}: header ${undocumented.join(', ')} sent but not documented`];
    if (!response.content) return received.body === undefined ? [] : [`${where}: body not documented`];
    if (received.contentType === null) return [];
    const mediaType = received.contentType.split(';')[0].trim();
    const media = response.content[mediaType];
    if (!media)
      return [
        `${where}: media type ${mediaType} not documented (documented: ${Object.keys(response.content).join(', ')})`,
      ];
    if (mediaType !== 'application/json' || !media.schema) return [];
    return this.check(where, media.schema, received.body).map((problem) => `${where}: ${problem}`);
  }

  /** How `value` fails `schema` (cached under `key`), in the document's terms; empty when it passes. */
  check(key: string, schema: SchemaObject | { $ref: string }, body: unknown): string[] {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile<object>(closed(rewriteRefs(schema)));
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}

/** `#/components/schemas/X` → the schema registered as `openapi`, under `$defs`. */
function rewriteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS}#/$defs/`)) as T;
}

/** Every object schema that lists its properties and says nothing of others admits no others. */
function closed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(closed) as T;
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, inner]) => [
    key,
    key === 'example' || key === 'examples' ? inner : closed(inner),
  ]);
  const schema = Object.fromEntries(entries) as Record<string, unknown>;
  const open = 'additionalProperties' in schema || 'unevaluatedProperties' in schema;
  return (schema.properties && !open ? { ...schema, unevaluatedProperties: false } : schema) as T;
}

/** As Fastify picks: at the first segment where two templates differ, a fixed segment beats a parameter. */
function byRouterPriority(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const aParam = a[i].startsWith('{');
    const bParam = b[i].startsWith('{');
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
}

const conformances = new Map<string, Promise<ResponseConformance>>();

/** One document per running app, fetched from it on first use. */
export function conformanceOf(baseUrl: string): Promise<ResponseConformance> {
  let conformance = conformances.get(baseUrl);
  if (!conformance) {
    conformance = ResponseConformance.fetch(baseUrl);
    conformances.set(baseUrl, conformance);
  }
  return conformance;
}

/** Throws, naming each departure, unless `answer` to `method path` conforms to the document of the app at `baseUrl`. */
export async function expectConformance(
  baseUrl: string,
  method: string,
  path: string,
  answer: { status: number; headers: Headers; body: unknown },
): Promise<void> {
  const contentType = answer.headers.get('content-type');
  const headers = Object.fromEntries(answer.headers.entries());
  const problems = (await conformanceOf(baseUrl)).problems({
    method,
    path,
    status: answer.status,
    contentType,
    headers,
    body: answer.body,
  });
  if (problems.length > 0) throw new Error(`the answer departs from the OpenAPI document:\n${problems.join('\n')}`);
}
