import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { ensureOwnedFolder } from '../../src/platform/owned-folder';

const PACKAGE_DIR = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..');

/** This user's folder for this version of the packaged browser. */
export function packagedBrowserFolder(): string {
  const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'crcs', `chromium-${version}`);
}

/**
 * The Chromium packed in the dev dependency `@sparticuz/chromium`, unpacked once per user and
 * version into that user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`) as a folder of its own:
 * never into a shared /tmp path that another user could fill first or write to (the package's own
 * unpacker uses /tmp/chromium, and unpacks its libraries there with the tarball's owner). Made whole
 * under a temporary name, checked, then renamed (`ensureOwnedFolder`), so a run interrupted while
 * unpacking leaves nothing that looks complete, and a truncated or foreign copy is replaced.
 *
 * Only the browser itself: its SwiftShader libraries (WebGL) and fonts serve serverless machines,
 * and the portal draws no WebGL and reads the system's fonts.
 */
export async function packagedBrowser(): Promise<string> {
  const folder = packagedBrowserFolder();
  const executable = join(folder, 'chromium');
  try {
    await ensureOwnedFolder(
      folder,
      async (staging) => {
        await pipeline(
          createReadStream(join(PACKAGE_DIR, 'bin', 'chromium.br')),
          createBrotliDecompress(),
          createWriteStream(join(staging, 'chromium'), { mode: 0o755 }),
        );
        // Chromium makes this empty folder beside itself at its first start: made here, it is part of the checked copy.
        mkdirSync(join(staging, 'locales'));
        const run = spawnSync(join(staging, 'chromium'), ['--version'], { encoding: 'utf8' });
        if (run.status !== 0)
          throw new Error(`the unpacked browser does not run: ${(run.stderr || String(run.error)).trim()}`);
      },
      (message) => console.warn(message),
    );
  } catch (error) {
    throw new Error(
      `the test browser could not be unpacked into ${folder}: ${(error as Error).message}; set CHROMIUM_PATH to a Chromium of your own`,
    );
  }
  return executable;
}
