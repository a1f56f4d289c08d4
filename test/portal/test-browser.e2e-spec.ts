import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { packagedBrowser, packagedBrowserFolder } from '../support/test-browser';

/** The browser the portal suites run, unpacked as a user's first run would (test/support/test-browser.ts). */
describe('the packaged test browser', () => {
  const cacheHome = process.env.XDG_CACHE_HOME;
  let cache: string;

  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'crcs-cache-'));
    process.env.XDG_CACHE_HOME = cache;
  });

  afterEach(() => {
    process.env.XDG_CACHE_HOME = cacheHome;
    if (cacheHome === undefined) delete process.env.XDG_CACHE_HOME;
    rmSync(cache, { recursive: true, force: true });
  });

  it("replaces a copy cut short by an interrupted run with a whole one of the user's own, in the user's cache", async () => {
    // What an interrupted unpack used to leave: the browser's first megabytes, no sign it was unfinished.
    const folder = packagedBrowserFolder();
    expect(dirname(dirname(folder))).toBe(cache);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'chromium'), Buffer.alloc(1 << 20), { mode: 0o755 });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const executable = await packagedBrowser();
    expect(warn.mock.calls).toEqual([[`replacing ${folder}: no manifest: an unfinished or foreign copy`]]);
    warn.mockRestore();
    expect(executable).toBe(join(folder, 'chromium'));
    const stats = statSync(executable);
    expect({ uid: stats.uid, mode: stats.mode & 0o777 }).toEqual({ uid: process.getuid!(), mode: 0o755 });
    expect(stats.size).toBeGreaterThan(100 << 20);
    expect(spawnSync(executable, ['--version'], { encoding: 'utf8' }).stdout).toMatch(/^Chromium \d+\./);
    expect(readdirSync(dirname(folder))).toEqual([basename(folder)]);
  }, 300_000);
});
