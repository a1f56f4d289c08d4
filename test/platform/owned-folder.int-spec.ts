import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureOwnedFolder, folderProblem } from '../../src/platform/owned-folder';

describe('ensureOwnedFolder', () => {
  let parent: string;
  let target: string;
  let fills: number;
  let logged: string[];
  const fill = (staging: string) => {
    fills += 1;
    mkdirSync(join(staging, 'bin'));
    writeFileSync(join(staging, 'bin', 'run'), '#!/bin/sh\necho ran\n', { mode: 0o700 });
    writeFileSync(join(staging, 'data.txt'), 'x'.repeat(1000), { mode: 0o600 });
  };
  const ensure = (filler: (staging: string) => void = fill) =>
    ensureOwnedFolder(target, filler, (message) => logged.push(message));

  beforeEach(() => {
    parent = join(mkdtempSync(join(tmpdir(), 'crcs-owned-')), 'cache');
    target = join(parent, 'tool-1.0');
    fills = 0;
    logged = [];
  });
  afterEach(() => rmSync(join(parent, '..'), { recursive: true, force: true }));

  it('fills once, readable by everyone and writable by this user only, and is used as it is from then on', async () => {
    await ensure();
    await ensure();
    expect(fills).toBe(1);
    expect(logged).toEqual([]);
    expect(statSync(join(target, 'bin', 'run')).mode & 0o777).toBe(0o755);
    expect(statSync(join(target, 'data.txt')).mode & 0o777).toBe(0o644);
    expect(spawnSync(join(target, 'bin', 'run'), { encoding: 'utf8' }).stdout).toBe('ran\n');
    expect(readdirSync(parent)).toEqual(['tool-1.0']);
  });

  it('leaves nothing under the final name when filling fails, and removes what a killed run left', async () => {
    const dead = spawnSync('true').pid;
    mkdirSync(join(parent), { recursive: true });
    mkdirSync(join(parent, `tool-1.0.partial-${dead}-0badc0de`));
    await expect(
      ensure((staging) => {
        writeFileSync(join(staging, 'half'), 'x');
        throw new Error('interrupted');
      }),
    ).rejects.toThrow('interrupted');
    expect(readdirSync(parent)).toEqual([]);
    await ensure();
    expect(folderProblem(target)).toBeUndefined();
  });

  it.each([
    [
      'truncated',
      () => truncateSync(join(target, 'data.txt'), 10),
      /^replacing \S+: data\.txt has 10 bytes, not 1000$/,
    ],
    ['missing a file', () => rmSync(join(target, 'bin', 'run')), /^replacing \S+: bin\/run is missing$/],
    [
      'with a file added',
      () => writeFileSync(join(target, 'bin', 'planted.so'), 'x', { mode: 0o644 }),
      /^replacing \S+: bin\/planted\.so is not in the manifest$/,
    ],
    [
      'writable by others',
      () => chmodSync(join(target, 'bin'), 0o777),
      /^replacing \S+: bin may be written by other users \(mode 777\)$/,
    ],
    [
      'without a manifest (unpacked by something else)',
      () => rmSync(join(target, '.manifest.json')),
      /^replacing \S+: no manifest: an unfinished or foreign copy$/,
    ],
  ])('replaces a copy %s', async (_, damage, reason) => {
    await ensure();
    damage();
    await ensure();
    expect(fills).toBe(2);
    expect(logged).toEqual([expect.stringMatching(reason)]);
    expect(folderProblem(target)).toBeUndefined();
    expect(readdirSync(parent)).toEqual(['tool-1.0']);
  });

  (process.getuid?.() === 0 ? it : it.skip)(
    "replaces a copy holding another user's file, and refuses a parent folder of another user",
    async () => {
      await ensure();
      chownSync(join(target, 'bin', 'run'), 1000, 1000);
      await ensure();
      expect(logged).toEqual([expect.stringMatching(/^replacing \S+: bin\/run belongs to uid 1000, not 0$/)]);
      expect(folderProblem(target)).toBeUndefined();

      chownSync(parent, 1000, 1000);
      await expect(ensure()).rejects.toThrow(`${parent} must be a folder of uid 0's own, and is not: move it away`);
    },
  );
});
