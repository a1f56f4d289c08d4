import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { operations } from '../../src/platform/openapi/openapi-document';
import { call } from '../support/auth';
import { portalSuite, screenshot } from '../portal/browser';

const SWAGGER_UI_DIST = dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * The browsable documentation in a real browser: Swagger UI from the service's own files, every
 * operation of the document listed, no script error or policy violation, nothing fetched from
 * another origin (checked after each test by the suite).
 */
describe('the docs page', () => {
  const suite = portalSuite();

  it('serves its page and files without a key, under a policy that lets only its own scripts run', async () => {
    const origin = new URL(suite.app.baseUrl).origin;
    const page = await fetch(`${origin}/api/v1/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(await page.text()).toContain('<script src="docs/init.js"></script>');
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['init.js', 'text/javascript; charset=utf-8'],
    ]) {
      const response = await fetch(`${origin}/api/v1/docs/${file}`);
      expect({ file, status: response.status, type: response.headers.get('content-type') }).toEqual({
        file,
        status: 200,
        type,
      });
      // Read to the end: an unread 1.5 MB body keeps the server's response, and so its close, waiting.
      const body = Buffer.from(await response.arrayBuffer());
      if (file !== 'init.js') expect(body.equals(readFileSync(join(SWAGGER_UI_DIST, file)))).toBe(true);
    }
    const missing = await call(suite.app, 'GET', '/docs/../../package.json');
    expect(missing.status).toBe(404);
    expect((await call(suite.app, 'GET', '/docs/index.html')).body).toEqual({
      error: 'NOT_FOUND',
      message: 'No documentation file index.html',
    });
  });

  it('lists every operation of the document, grouped by tag', async () => {
    const { body: document } = await call(suite.app, 'GET', '/openapi.json');
    // The page lists the webhooks (what the service sends) beside the operations.
    const operationCount = operations(document).length + Object.keys(document.webhooks).length;
    const { page } = suite.tab;
    await page.goto(`${new URL(suite.app.baseUrl).origin}/api/v1/docs`);
    await page.getByRole('heading', { name: /Cash Rounding Compliance Service/ }).waitFor();
    await page
      .locator('.opblock')
      .nth(operationCount - 1)
      .waitFor();
    expect(await page.locator('.opblock').count()).toBe(operationCount);
    const tags = await page.locator('.opblock-tag').allInnerTexts();
    expect(tags.map((text) => text.split('\n')[0].trim())).toEqual(
      document.tags.map((tag: { name: string }) => tag.name),
    );
    await screenshot(page, 'api-docs');
  });
});
