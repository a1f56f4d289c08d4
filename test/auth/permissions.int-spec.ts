import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ReadsOnly } from '../../src/platform/identity/reads-only.decorator';
import { Roles } from '../../src/platform/identity/roles.decorator';
import { ROLES } from '../../src/platform/identity/principal';
import type { Endpoint } from '../../src/health/route-catalog';
import { call, issueKey, onboardMerchant, revokeKey } from '../support/auth';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { PERMISSION_MATRIX, routeShape, type Rule } from './permission-matrix';

/** Test-only routes, under a prefix the matrix and the OpenAPI document leave out: the guard's edge cases. */
@ApiExcludeController()
@Controller('test-only')
class GuardEdgeCasesController {
  /** No decorator at all: the guard must close it. */
  @Get('no-rule')
  noRule() {
    return { ok: true };
  }

  @Get('no-roles')
  @Roles()
  noRoles() {
    return { ok: true };
  }

  /** Names the auditor, but a POST writes: auditors stay out. */
  @Post('write')
  @Roles('auditor', 'admin')
  write() {
    return { ok: true };
  }

  /** A POST that writes nothing: auditors may. */
  @Post('read')
  @Roles('auditor')
  @ReadsOnly()
  read() {
    return { ok: true };
  }
}
const TEST_ONLY = /^\/test-only\//;

type Credential = 'no key' | 'unknown key' | 'revoked key' | 'merchant' | 'auditor' | 'admin' | 'partner';
const CREDENTIALS: Credential[] = ['no key', 'unknown key', 'revoked key', 'merchant', 'auditor', 'admin', 'partner'];
type Outcome = 'allowed' | 401 | 403;

const PREFIX = '/api/v1';
const FORBIDDEN_BODY = { error: 'FORBIDDEN', message: 'Insufficient permissions for this endpoint' };
const UNAUTHORIZED_BODY = { error: 'UNAUTHORIZED', message: 'Invalid or missing API key' };

function expectedOutcome(rule: Rule, credential: Credential): Outcome {
  if (rule === 'public') return 'allowed';
  if (credential === 'no key' || credential === 'unknown key' || credential === 'revoked key') return 401;
  return rule.includes(credential) ? 'allowed' : 403;
}

function ruleFor(route: string): Rule | undefined {
  const entry = Object.entries(PERMISSION_MATRIX).find(([known]) => routeShape(known) === routeShape(route));
  return entry?.[1];
}

describe('the permission matrix, over HTTP', () => {
  let testApp: TestApp;
  let served: string[];
  const keys = {} as Record<Credential, string | undefined>;

  beforeAll(async () => {
    testApp = await startTestApp({ controllers: [GuardEdgeCasesController] });
    const merchant = await onboardMerchant(testApp);
    const revoked = await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id });
    expect((await revokeKey(testApp, revoked.api_key.id)).status).toBe(200);
    keys['no key'] = undefined;
    keys['unknown key'] = 'svc_0123456789abcdefghijABCDEFGHIJ01';
    keys['revoked key'] = revoked.key;
    keys.merchant = (await issueKey(testApp, { role: 'merchant', merchant_id: merchant.merchant_id })).key;
    keys.auditor = (await issueKey(testApp, { role: 'auditor' })).key;
    keys.admin = (await issueKey(testApp, { role: 'admin' })).key;
    keys.partner = (await issueKey(testApp, { role: 'partner' })).key;

    const { body } = await call(testApp, 'GET', '/version');
    served = (body.endpoints as Endpoint[])
      .map(({ method, path }) => `${method} ${path.slice(PREFIX.length)}`)
      .filter((route) => !TEST_ONLY.test(route.split(' ')[1]));
  });

  afterAll(() => testApp?.close());

  it('has a rule for every route the router serves', () => {
    expect(served.length).toBeGreaterThanOrEqual(6);
    expect(served.filter((route) => ruleFor(route) === undefined)).toEqual([]);
  });

  it('answers every served route as the matrix says, for every kind of key', async () => {
    const expected: Record<string, Record<string, Outcome>> = {};
    const actual: Record<string, Record<string, 'allowed' | number>> = {};
    const badBodies: string[] = [];
    for (const route of served) {
      const [method, template] = route.split(' ');
      const path = template.replace(/\{[^}]+\}/g, 'x');
      expected[route] = {};
      actual[route] = {};
      for (const credential of CREDENTIALS) {
        expected[route][credential] = expectedOutcome(ruleFor(route)!, credential);
        const answer = await call(testApp, method, path, {
          key: keys[credential],
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        const outcome = answer.status === 401 || answer.status === 403 ? answer.status : 'allowed';
        actual[route][credential] = outcome;
        if (outcome === 401 && !matches(answer.body, UNAUTHORIZED_BODY))
          badBodies.push(`${route} ${credential}: ${JSON.stringify(answer.body)}`);
        if (outcome === 403 && !matches(answer.body, FORBIDDEN_BODY))
          badBodies.push(`${route} ${credential}: ${JSON.stringify(answer.body)}`);
      }
    }
    expect(actual).toEqual(expected);
    expect(badBodies).toEqual([]);
  });

  it('puts the rate-limit headers on keyed answers, 403 included, and not on 401', async () => {
    const forbidden = await call(testApp, 'GET', '/admin/api-keys', { key: keys.merchant });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('x-ratelimit-limit')).toBe('1000');
    const unauthorized = await call(testApp, 'GET', '/admin/api-keys', { key: keys['unknown key'] });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('takes ADMIN_API_KEY as an admin key', async () => {
    expect((await call(testApp, 'GET', '/admin/api-keys', { key: TEST_ADMIN_KEY })).status).toBe(200);
    expect((await call(testApp, 'GET', '/admin/api-keys', { key: `${TEST_ADMIN_KEY}x` })).status).toBe(401);
    expect((await call(testApp, 'GET', '/admin/api-keys', { key: TEST_ADMIN_KEY.slice(0, -1) })).status).toBe(401);
  });

  it.each([
    ['an empty key', ''],
    ['a key with the right prefix and junk', 'svc_!!!!'],
    ['a very long key', `svc_${'a'.repeat(5000)}`],
  ])('refuses %s with 401', async (_what, key) => {
    const { status, body } = await call(testApp, 'GET', '/admin/api-keys', { key });
    expect(status).toBe(401);
    expect(body).toEqual(UNAUTHORIZED_BODY);
  });

  describe('fails closed', () => {
    it.each(ROLES)('closes a route without a rule to a %s key (403)', async (role) => {
      const { status, body } = await call(testApp, 'GET', '/test-only/no-rule', { key: keys[role] });
      expect(status).toBe(403);
      expect(body).toEqual(FORBIDDEN_BODY);
      expect((await call(testApp, 'GET', '/test-only/no-roles', { key: keys[role] })).status).toBe(403);
    });

    it('still asks for a key first on a route without a rule (401)', async () => {
      expect((await call(testApp, 'GET', '/test-only/no-rule')).status).toBe(401);
    });

    it('keeps auditors off a writing route that names them', async () => {
      expect((await call(testApp, 'POST', '/test-only/write', { key: keys.auditor, body: {} })).status).toBe(403);
      expect((await call(testApp, 'POST', '/test-only/write', { key: keys.admin, body: {} })).status).toBe(201);
    });

    it('lets auditors use a POST marked @ReadsOnly', async () => {
      expect((await call(testApp, 'POST', '/test-only/read', { key: keys.auditor, body: {} })).status).toBe(201);
      expect((await call(testApp, 'POST', '/test-only/read', { key: keys.merchant, body: {} })).status).toBe(403);
    });
  });
});

describe("the integrators' permission table", () => {
  it('lists exactly the routes and roles of the permission matrix', () => {
    const readme = readFileSync(join(__dirname, '../../docs/integrators.md'), 'utf8');
    // Only the Permissions section: other tables of the document may name routes too.
    const doc = readme.split(/^## /m).find((section) => section.startsWith('Permissions\n')) ?? '';
    const rows = [...doc.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([^|]+) \|$/gm)];
    const documented = Object.fromEntries(
      rows.map(([, method, path, roles]) => {
        const rule =
          roles.trim() === 'public'
            ? 'public'
            : roles
                .split(',')
                .map((role) => role.trim())
                .sort();
        return [`${method} ${path}`, rule];
      }),
    );
    const matrix = Object.fromEntries(
      Object.entries(PERMISSION_MATRIX).map(([route, rule]) => [route, rule === 'public' ? rule : [...rule].sort()]),
    );
    expect(documented).toEqual(matrix);
  });
});

function matches(body: unknown, expected: object): boolean {
  return JSON.stringify(body) === JSON.stringify(expected);
}
