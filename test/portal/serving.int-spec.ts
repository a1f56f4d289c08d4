import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint } from '../../src/health/route-catalog';
import { call } from '../support/auth';
import { get } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

const PORTAL_DIR = join(__dirname, '../../portal');
const portalFiles = () =>
  readdirSync(PORTAL_DIR, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(html|js|css|svg)$/.test(name));

/** The portal's files as the service serves them: no key, strict headers, nothing but its own files. */
describe('serving the portal', () => {
  let app: TestApp;
  let origin: string;
  const port = () => Number(new URL(origin).port);

  beforeAll(async () => {
    app = await startTestApp();
    origin = new URL(app.baseUrl).origin;
  });

  afterAll(() => app?.close());

  it('redirects /portal to /portal/, whose relative URLs then resolve under it', async () => {
    const response = await fetch(`${origin}/portal`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/portal/');
  });

  it('serves the page without a key, with a policy that lets only its own files run', async () => {
    const response = await fetch(`${origin}/portal/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toContain('<script type="module" src="js/app.js"></script>');
  });

  it('serves every file of portal/ as it is on disk, with its type and the same headers', async () => {
    expect(portalFiles()).toEqual(
      expect.arrayContaining(['index.html', 'portal.css', 'js/app.js', 'js/pages/keys.js']),
    );
    for (const name of portalFiles()) {
      const response = await fetch(`${origin}/portal/${name}`);
      expect({
        name,
        status: response.status,
        type: response.headers.get('content-type'),
        csp: response.headers.has('content-security-policy'),
      }).toEqual({
        name,
        status: 200,
        type: expect.stringMatching(/^(text\/(html|javascript|css); charset=utf-8|image\/svg\+xml)$/),
        csp: true,
      });
      expect(await response.text()).toBe(readFileSync(join(PORTAL_DIR, name), 'utf8'));
    }
  });

  it('has no inline script, inline style or address of another origin in any file', () => {
    for (const name of portalFiles()) {
      const text = readFileSync(join(PORTAL_DIR, name), 'utf8');
      // The SVG namespace is a name, never fetched.
      expect({
        name,
        urls: text.replaceAll('http://www.w3.org/2000/svg', '').match(/\b(https?:)?\/\/[\w.-]+\.\w+/g),
      }).toEqual({ name, urls: null });
      if (name.endsWith('.html')) {
        expect({ name, inline: text.match(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/g) }).toEqual({
          name,
          inline: null,
        });
      }
    }
  });

  it.each([
    ['/portal/missing.js'],
    ['/portal/../package.json'],
    ['/portal/%2e%2e/package.json'],
    ['/portal/js/../../package.json'],
    ['/portal/.gitignore'],
  ])('answers %s with the API’s 404, never a file from elsewhere', async (path) => {
    const response = await get(port(), path);
    expect(response.statusCode).toBe(404);
  });

  it('answers an unknown portal file with the JSON 404 of the API', async () => {
    const response = await fetch(`${origin}/portal/missing.js`);
    expect(await response.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('keeps the portal out of /version, which lists API endpoints only', async () => {
    const endpoints: Endpoint[] = (await call(app, 'GET', '/version')).body.endpoints;
    expect(endpoints.filter(({ path }) => !path.startsWith('/api/v1/'))).toEqual([]);
    expect(endpoints).toContainEqual({ method: 'GET', path: '/api/v1/admin/merchants' });
  });
});
