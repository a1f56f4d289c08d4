import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';

import { getMetadataStorage } from 'class-validator';
import type {
  MediaTypeObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { API_KEY_SCHEME, ROLES_EXTENSION } from '../../src/platform/identity/roles.decorator';
import type { Endpoint } from '../../src/health/route-catalog';
import { API_TAGS, operations as documentOperations } from '../../src/platform/openapi/openapi-document';
import { PERMISSION_MATRIX } from '../auth/permission-matrix';
import { COMPLIANCE_REASON_CODES } from '../../src/transactions/compliance-reason-codes';
import { call } from '../support/auth';
import { ResponseConformance } from '../support/openapi';
import { startTestApp, type TestApp } from '../support/test-app';

/** A class, as Nest and class-validator key their metadata by it. */
type Constructor = abstract new (...args: never[]) => unknown;

const PREFIX = '/api/v1';
const ROOT = join(__dirname, '../..');
const VALIDATOR_CLI = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
const REDOCLY_CLI = join(ROOT, 'node_modules/.bin/redocly');
/** The document of the last release: changes since are held to it (see the compatibility test). */
const RELEASED_DOCUMENT = join(ROOT, 'docs/openapi/released.json');
/**
 * Enums a response may extend within a major version, because their documentation tells clients to
 * expect new values (an unknown reason code is read by its severity).
 */
const OPEN_ENUMS = ['#/components/schemas/ComplianceReason/properties/code/enum'];
/** Where `@ApiOperation()` keeps its options (DECORATORS.API_OPERATION; the package exports no constants). */
const API_OPERATION_METADATA = 'swagger/apiOperation';

type Schema = SchemaObject | ReferenceObject;

/**
 * The OpenAPI document against the router and against itself. That real responses match it is
 * checked by every e2e test: `call` (test/support/auth.ts) validates each answer it receives.
 */
describe('the OpenAPI document', () => {
  let app: TestApp;
  let document: OpenAPIObject;
  let conformance: ResponseConformance;
  let dir: string;
  const operations = () => documentOperations(document);
  /** The served document as a file, for the command-line tools. */
  const documentFile = () => join(dir, 'openapi.json');

  beforeAll(async () => {
    app = await startTestApp();
    const answer = await call(app, 'GET', '/openapi.json');
    expect(answer.status).toBe(200);
    document = answer.body;
    conformance = new ResponseConformance(document);
    dir = mkdtempSync(join(tmpdir(), 'crcs-openapi-'));
    writeFileSync(documentFile(), JSON.stringify(document));
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is served without a key as OpenAPI 3.1, and is a valid OpenAPI 3.1 document', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: `{scheme}://{host}${PREFIX}` })]);
    const { scheme, host } = document.servers![0].variables!;
    expect(`${scheme.default}://${host.default}${PREFIX}`).toBe('http://localhost:3000/api/v1');
    // An ES module, so run as the command-line tool it ships rather than loaded into jest.
    const result = spawnSync(process.execPath, [VALIDATOR_CLI, documentFile()], { encoding: 'utf8' });
    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({
      status: 0,
      output: expect.stringContaining('"valid": true'),
    });
  });

  it('passes `redocly lint` with the recommended rules: no error, no warning', () => {
    const result = spawnSync(
      REDOCLY_CLI,
      ['lint', documentFile(), '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
      {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(result.stdout) as {
      totals: Record<string, number>;
      problems: Array<{ ruleId: string; message: string; location: unknown }>;
    };
    expect(
      report.problems.map(({ ruleId, message, location }) => `${ruleId}: ${message} ${JSON.stringify(location)}`),
    ).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(result.status).toBe(0);
  });

  /** The changes from `base` to `revision` that redocly rates as breaking, but for an open enum gaining values. */
  const breakingChanges = (base: string, revision: string): string[] => {
    const result = spawnSync(REDOCLY_CLI, ['diff', base, revision, '--format', 'json', '--fail-on', 'none'], {
      // Not the project root: its redocly.yaml (lint rules) lowers the diff's ratings (a removed path becomes a patch).
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
    const report = JSON.parse(result.stdout) as {
      changes: {
        path: string;
        impact: string;
        verdicts: { ruleId: string; message: string; location: { pointer: string } }[];
      }[];
    };
    return report.changes
      .filter(({ impact }) => impact === 'major')
      .flatMap(({ path, verdicts }) =>
        verdicts
          .filter(({ ruleId, location }) => !(ruleId === 'enum-values-added' && OPEN_ENUMS.includes(location.pointer)))
          .map(({ ruleId, message }) => `${path}: ${ruleId}: ${message}`),
      );
  };

  it('breaks no client of the last released document (redocly diff) unless the major version moved', () => {
    const released = JSON.parse(readFileSync(RELEASED_DOCUMENT, 'utf8')) as OpenAPIObject;
    const major = (version: string) => Number(version.split('.')[0]);
    expect(major(document.info.version)).toBeGreaterThanOrEqual(major(released.info.version));
    const breaking = breakingChanges(RELEASED_DOCUMENT, documentFile());
    if (major(document.info.version) === major(released.info.version)) expect(breaking).toEqual([]);
  });

  it('finds a breaking change when there is one: a route taken away', () => {
    const { '/version': _removed, ...paths } = document.paths;
    const without = join(dir, 'without-version.json');
    writeFileSync(without, JSON.stringify({ ...document, paths }));
    expect(breakingChanges(documentFile(), without)).toEqual([expect.stringContaining('/version')]);
  });

  it('describes every route the router serves, and no other', async () => {
    const { body } = await call(app, 'GET', '/version');
    const served = (body.endpoints as Endpoint[])
      .map(({ method, path }) => `${method} ${path.slice(PREFIX.length)}`)
      .sort();
    expect(served.length).toBeGreaterThan(40);
    expect(
      operations()
        .map(({ route }) => route)
        .sort(),
    ).toEqual(served);
  });

  it('gives each operation a summary, one known tag and an id', () => {
    const known = API_TAGS.map((tag) => tag.name) as string[];
    const lacking = operations().filter(
      ({ operation }) =>
        !operation.summary ||
        operation.tags?.length !== 1 ||
        !known.includes(operation.tags[0]) ||
        !operation.operationId,
    );
    expect(
      lacking.map(
        ({ route, operation }) => `${route}: ${JSON.stringify({ summary: operation.summary, tags: operation.tags })}`,
      ),
    ).toEqual([]);
    expect(document.tags?.map((tag) => tag.name)).toEqual(known);
  });

  it('names each operation with a verb phrase a generated client can use as a function name', () => {
    const ids = operations().map(({ operation }) => operation.operationId!);
    expect(
      ids.filter(
        (id) =>
          !/^(get|list|record|issue|revoke|onboard|change|override|void|adjust|payOut|create|distribute|check|verify|export|delete|rotate|replay)[A-Z][A-Za-z]*$/.test(
            id,
          ),
      ),
    ).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['recordTransaction', 'issueRefund', 'getReceipt']));
  });

  it('describes every response and every parameter', () => {
    const undescribed = operations().flatMap(({ route, operation }) => [
      ...Object.entries(operation.responses)
        .filter(([, response]) => !(response as ResponseObject).description)
        .map(([status]) => `${route} → ${status}`),
      ...((operation.parameters ?? []) as ParameterObject[])
        .filter((parameter) => !parameter.description)
        .map((parameter) => `${route} ${parameter.name}`),
    ]);
    expect(undescribed).toEqual([]);
  });

  it('asks for the key exactly where the permission matrix does, and lists the roles it admits', () => {
    const mismatches = operations().flatMap(({ route, operation }) => {
      const rule = PERMISSION_MATRIX[route];
      const roles = (operation as { [ROLES_EXTENSION]?: string[] })[ROLES_EXTENSION];
      const documented = roles ?? 'public';
      const expected = rule === 'public' ? 'public' : [...rule].sort();
      // An open route says so with an empty list, rather than leaving a reader to guess.
      const security = rule === 'public' ? [] : [{ [API_KEY_SCHEME]: [] }];
      const actual = documented === 'public' ? 'public' : [...documented].sort();
      return JSON.stringify([actual, operation.security]) === JSON.stringify([expected, security])
        ? []
        : [`${route}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`];
    });
    expect(mismatches).toEqual([]);
  });

  it("lists every error code an operation documents in ErrorBody.error's enum, and the README's error table the same codes", () => {
    const documented = new Set(
      operations().flatMap(({ operation }) =>
        Object.entries(operation.responses)
          .filter(([status]) => /^[45]\d\d$/.test(status))
          .flatMap(([, response]) =>
            Object.keys((response as ResponseObject).content?.['application/json']?.examples ?? {}),
          ),
      ),
    );
    const errorSchema = (document.components!.schemas!.ErrorBody as SchemaObject).properties!.error as SchemaObject;
    expect(errorSchema.enum).toEqual([...documented].sort());
    const readme = readFileSync(join(ROOT, 'docs/integrators.md'), 'utf8');
    const table = readme.slice(
      readme.indexOf('\n## Errors\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Errors\n') + 1),
    );
    const inReadme = [...table.matchAll(/^\| \d{3} \| ([^|]+) \|/gm)].flatMap(([, cell]) =>
      [...cell.matchAll(/`([A-Z_]+)`/g)].map(([, code]) => code),
    );
    expect([...inReadme].sort()).toEqual(errorSchema.enum);
  });

  it('lists every compliance reason code with its meaning in ComplianceReason.code, and docs/compliance-reasons.md the same codes and meanings', () => {
    const code = (document.components!.schemas!.ComplianceReason as SchemaObject).properties!.code as SchemaObject;
    expect(code.enum).toEqual(Object.keys(COMPLIANCE_REASON_CODES));
    for (const [reason, meaning] of Object.entries(COMPLIANCE_REASON_CODES))
      expect(code.description).toContain(`\`${reason}\`: ${meaning}`);
    const doc = readFileSync(join(ROOT, 'docs/compliance-reasons.md'), 'utf8');
    const table = doc.slice(doc.indexOf('\n### Codes\n'));
    const rows = [...table.matchAll(/^\| `([A-Z_]+)` \| (.+) \|$/gm)].map(([, reason, meaning]) => [reason, meaning]);
    expect(rows).toEqual(Object.entries(COMPLIANCE_REASON_CODES));
  });

  it('documents a success response with its content, and every error with the error body', () => {
    const problems = operations().flatMap(({ route, operation }) => {
      const statuses = Object.keys(operation.responses);
      const found: string[] = [];
      const success = statuses.filter((status) => /^2\d\d$/.test(status));
      if (success.length === 0) found.push('no success response');
      for (const status of success) {
        const { content } = operation.responses[status] as ResponseObject;
        if (status !== '204' && (!content || Object.values(content).some((media) => !media.schema)))
          found.push(`${status} without a schema`);
      }
      for (const status of statuses.filter((s) => /^[45]\d\d$/.test(s))) {
        const schema = (operation.responses[status] as ResponseObject).content?.['application/json']?.schema as
          ReferenceObject | undefined;
        // /health answers 503 with its own report: the service is up, the database is not.
        if (schema?.$ref !== '#/components/schemas/ErrorBody' && route !== 'GET /health')
          found.push(`${status} is not an ErrorBody`);
      }
      return found.map((problem) => `${route}: ${problem}`);
    });
    expect(problems).toEqual([]);
  });

  it('gives every JSON request and success body an example that its own schema accepts', () => {
    const problems = operations().flatMap(({ route, operation }) => {
      const bodies: Array<[string, MediaTypeObject | undefined]> = [
        [
          'request',
          (operation.requestBody as { content?: Record<string, MediaTypeObject> } | undefined)?.content?.[
            'application/json'
          ],
        ],
        ...Object.entries(operation.responses)
          .filter(([status]) => /^2\d\d$/.test(status))
          .map(([status, response]): [string, MediaTypeObject | undefined] => [
            status,
            (response as ResponseObject).content?.['application/json'],
          ]),
      ];
      return bodies.flatMap(([which, media]) => {
        if (!media?.schema) return [];
        const example = media.example ?? exampleOf(media.schema, document);
        if (example.missing.length > 0) return [`${route} ${which}: no example for ${example.missing.join(', ')}`];
        return conformance
          .check(`${route} ${which} example`, media.schema, example.value)
          .map((problem) => `${route} ${which}: ${problem}`);
      });
    });
    expect(problems).toEqual([]);
  });

  it('lists exactly the fields each request DTO validates, required exactly where they are not optional', () => {
    const byId = new Map(operations().map(({ operation }) => [operation.operationId!, operation]));
    const problems: string[] = [];
    const compare = (where: string, dto: Constructor, documented: Record<string, boolean>) => {
      const expected = validatedFields(dto);
      if (JSON.stringify(sortedEntries(documented)) !== JSON.stringify(sortedEntries(expected))) {
        problems.push(
          `${where} (${dto.name}): documented ${JSON.stringify(documented)}, validated ${JSON.stringify(expected)}`,
        );
      }
    };
    for (const { controller, method, operationId, args } of routeArguments(app)) {
      const operation = operationId === undefined ? undefined : byId.get(operationId);
      if (!operation) continue; // a route of the router but not of the document: the coverage test names it
      for (const { type, dto } of args) {
        if (type === RouteParamtypes.BODY) {
          const ref = (operation.requestBody as { content: Record<string, MediaTypeObject> } | undefined)?.content[
            'application/json'
          ]?.schema;
          const name = (ref as ReferenceObject | undefined)?.$ref.split('/').pop();
          if (name !== dto.name)
            problems.push(`${controller}.${method}: body documented as ${name}, validated as ${dto.name}`);
        } else {
          compare(
            `${controller}.${method} ${type === RouteParamtypes.QUERY ? 'query' : 'path'}`,
            dto,
            parametersIn(operation, type === RouteParamtypes.QUERY ? 'query' : 'path'),
          );
        }
      }
    }
    // Bodies and the objects nested in them are components, named after their classes.
    for (const [name, schema] of Object.entries(document.components!.schemas!)) {
      const dto = validatedClasses().find((candidate) => candidate.name === name);
      const { properties = {}, required = [] } = schema as SchemaObject;
      if (dto)
        compare(
          `#/components/schemas/${name}`,
          dto,
          Object.fromEntries(Object.keys(properties).map((field) => [field, required.includes(field)])),
        );
    }
    expect(problems).toEqual([]);
  });
});

/**
 * The example Swagger UI would show: each property's own `example`, else built from its parts (the
 * first of an enum, one item of an array). `missing` names the leaves with nothing to show.
 */
function exampleOf(
  schema: Schema,
  document: OpenAPIObject,
  at = '',
  seen = new Set<string>(),
): { value: unknown; missing: string[] } {
  if ('$ref' in schema) {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name)) return { value: undefined, missing: [] };
    return exampleOf(document.components!.schemas![name], document, at, new Set([...seen, name]));
  }
  if (schema.example !== undefined) return { value: schema.example, missing: [] };
  if (schema.enum) return { value: schema.enum[0], missing: [] };
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants) return exampleOf(variants[0], document, at, seen);
  if (schema.type === 'array' && schema.items) {
    const item = exampleOf(schema.items, document, `${at}[]`, seen);
    return { value: item.value === undefined ? [] : [item.value], missing: item.missing };
  }
  if (schema.properties) {
    const missing: string[] = [];
    const value: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const inner = exampleOf(property, document, at ? `${at}.${name}` : name, seen);
      missing.push(...inner.missing);
      if (inner.value !== undefined) value[name] = inner.value;
    }
    return { value, missing };
  }
  return { value: undefined, missing: [at || '(body)'] };
}

const sortedEntries = (fields: Record<string, boolean>) =>
  Object.entries(fields).sort(([a], [b]) => a.localeCompare(b));

/** Every class class-validator holds rules for. */
function validatedClasses(): Constructor[] {
  return [
    ...(
      getMetadataStorage() as unknown as { validationMetadatas: Map<Constructor, unknown> }
    ).validationMetadatas.keys(),
  ];
}

/** The fields class-validator checks on `dto` (inherited ones included), each with whether it is required. */
function validatedFields(dto: Constructor): Record<string, boolean> {
  const fields: Record<string, boolean> = {};
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    fields[rule.propertyName] = (fields[rule.propertyName] ?? true) && rule.name !== 'isOptional';
  }
  return fields;
}

function parametersIn(operation: OperationObject, place: 'query' | 'path'): Record<string, boolean> {
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  return Object.fromEntries(
    parameters
      .filter((parameter) => parameter.in === place)
      .map((parameter) => [parameter.name, parameter.required === true]),
  );
}

/** The body, query and path DTO classes each route handler of the app validates, from Nest's own route metadata. */
function routeArguments(app: TestApp): Array<{
  controller: string;
  method: string;
  operationId?: string;
  args: Array<{ type: RouteParamtypes; dto: Constructor }>;
}> {
  const routes = [];
  for (const module of app.app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const prototype = (metatype as Constructor).prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[method];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const declared = (Reflect.getMetadata(ROUTE_ARGS_METADATA, metatype as Constructor, method) ?? {}) as Record<
          string,
          { index: number; data?: unknown }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as Constructor[];
        const args = Object.entries(declared).flatMap(([key, { index, data }]) => {
          const type = Number(key.split(':')[0]) as RouteParamtypes;
          const validated = [RouteParamtypes.BODY, RouteParamtypes.QUERY, RouteParamtypes.PARAM].includes(type);
          // A single named value (`@Param('asset')`) is no DTO.
          const dto = types[index];
          return validated && data === undefined && dto && Object.keys(validatedFields(dto)).length > 0
            ? [{ type, dto }]
            : [];
        });
        const { operationId } = (Reflect.getMetadata(API_OPERATION_METADATA, handler) ?? {}) as {
          operationId?: string;
        };
        routes.push({ controller: (metatype as Constructor).name, method, operationId, args });
      }
    }
  }
  return routes;
}
