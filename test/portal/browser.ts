import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/test-app';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

export const LAPTOP = { width: 1280, height: 800 };
export const TABLET = { width: 820, height: 1180 };
export const PHONE = { width: 390, height: 844 };

/**
 * Tests never write into the tree: screenshots land in the run's temporary folder unless
 * `npm run screenshots` names docs/screenshots/ for the README.
 */
const SCREENSHOTS = resolve(process.env.CRCS_SCREENSHOTS_DIR ?? join(process.env.CRCS_TEST_TMP!, 'screenshots'));

/** The Chromium the global set-up chose: the one packaged with the dev dependencies, or CHROMIUM_PATH. */
const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CRCS_CHROMIUM, args: ARGS });

/** The service's origin: the portal must never reach anything else. */
const originOf = (app: TestApp) => new URL(app.baseUrl).origin;

export interface PortalTab {
  page: Page;
  context: BrowserContext;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Uncaught script errors and Content-Security-Policy violations: there must be none. */
  problems: string[];
  /** Requests to another origin than the service's (a blob: URL of the page's own origin is the page's). */
  foreignRequests(): string[];
  close(): Promise<void>;
}

export interface PortalSuite {
  app: TestApp;
  browser: Browser;
  /** This test's tab, signed in when the suite names a key. */
  tab: PortalTab;
}

/**
 * Registers the hooks of a portal suite: one service and one browser per file, a fresh tab per test
 * (signed in with `signInWith()`, read when the test starts), checked after every test. `env`: the service's configuration beyond the tests' defaults.
 */
export function portalSuite({
  signInWith,
  env,
}: { signInWith?: () => string; env?: Record<string, string> } = {}): PortalSuite {
  const suite = {} as PortalSuite;
  beforeAll(async () => {
    // Each kept as it comes: when one fails, afterAll still closes the other (a service left running
    // would outlive the run's folder, and its server with it).
    const [app, browser] = await Promise.allSettled([startTestApp({ env }), launchBrowser()]);
    if (app.status === 'fulfilled') suite.app = app.value;
    if (browser.status === 'fulfilled') suite.browser = browser.value;
    for (const started of [app, browser]) if (started.status === 'rejected') throw started.reason;
  });
  beforeEach(async () => {
    suite.tab = await openTab(suite.browser, suite.app);
    if (signInWith) await signIn(suite.tab, suite.app, signInWith());
  });
  afterEach(() => closeChecked(suite.tab));
  afterAll(() => Promise.all([suite.browser && closeBrowser(suite.browser), suite.app?.close()]));
  return suite;
}

/**
 * How long a browser gets to exit: a ceiling for a loaded machine (two runs side by side here took more
 * than 10 s, and Jest then force-exited the worker that still held it); Playwright kills one still
 * running when the test process ends.
 */
const BROWSER_CLOSE_MS = 60_000;

/**
 * Chromium now and then never acknowledges the close (once in a full run here, the suite's tests all
 * passed): the teardown must not hang on it, and the service closes beside it either way.
 */
async function closeBrowser(browser: Browser): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, BROWSER_CLOSE_MS);
  });
  await Promise.race([browser.close(), timeout]);
  clearTimeout(timer);
}

/** Closes the tab after checking that it reached nothing but the service and broke no script or policy. */
export async function closeChecked(tab: PortalTab): Promise<void> {
  expect(tab.problems).toEqual([]);
  expect(tab.foreignRequests()).toEqual([]);
  await tab.close();
}

export async function openTab(browser: Browser, app: TestApp, viewport = LAPTOP): Promise<PortalTab> {
  const origin = originOf(app);
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  return {
    page,
    context,
    requests,
    problems,
    foreignRequests: () => requests.filter((url) => new URL(url).origin !== origin),
    close: () => context.close(),
  };
}

/** Opens the portal and signs in; resolves once the first page's heading is shown. */
export async function signIn(tab: PortalTab, app: TestApp, key: string): Promise<void> {
  await tab.page.goto(`${originOf(app)}/portal`);
  await tab.page.getByLabel('API key').fill(key);
  await tab.page.getByRole('button', { name: 'Sign in' }).click();
  await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Goes to a portal page by its hash route and waits for its heading. */
export async function visit(tab: PortalTab, route: string, heading: string): Promise<void> {
  await tab.page.evaluate(`location.hash = ${JSON.stringify(`#/${route}`)}`);
  await tab.page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** A viewport-sized PNG: under docs/screenshots/, linked from the README, when `npm run screenshots` runs. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
