import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { isAlive } from './processes';

/** Written last into the staging folder: what a complete copy holds, checked at every use. */
const MANIFEST = '.manifest.json';

interface Entry {
  path: string;
  kind: 'dir' | 'file' | 'link';
  mode: number;
  size: number;
}

/**
 * A folder that programs are run from (the database's binaries, the test browser), kept complete
 * and the current OS user's own. It is filled under a temporary name beside its final one, given
 * this user's modes, checked, then renamed into place: a run killed halfway leaves nothing that
 * looks finished. At every use it is checked again against the manifest written before the rename:
 * a truncated copy, or one that another user owns or may write, is replaced, never run.
 *
 * The folder and its parent are readable by everyone and writable by this user only; the parent
 * must already be this user's, or is made so.
 */
export async function ensureOwnedFolder(
  target: string,
  fill: (staging: string) => Promise<void> | void,
  log: (message: string) => void,
): Promise<string> {
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  assertOwnParent(parent);
  removeDeadStagings(parent, basename(target));
  const problem = folderProblem(target);
  if (problem === undefined) return target;
  if (problem !== 'missing') {
    log(`replacing ${target}: ${problem}`);
    discard(target, log);
  }
  const staging = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(staging, { mode: 0o755 });
    await fill(staging);
    writeManifest(staging);
    const unfit = folderProblem(staging);
    if (unfit !== undefined) throw new Error(`the copy made in ${staging} is unfit: ${unfit}`);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another process finished the same copy first: its rename won, and its copy is as good.
    if (folderProblem(target) === undefined) return target;
    throw error;
  }
  return target;
}

/** Why `folder` may not be run from (`missing` when there is none), or undefined when it is complete and this user's own. */
export function folderProblem(folder: string): string | undefined {
  let manifest: Entry[];
  try {
    manifest = JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as Entry[];
  } catch {
    return lstatOrUndefined(folder) ? 'no manifest: an unfinished or foreign copy' : 'missing';
  }
  const expected = new Map(manifest.map((entry) => [entry.path, entry]));
  for (const { path, stats } of walk(folder)) {
    if (path === MANIFEST) {
      const problem = ownershipProblem(path, stats);
      if (problem) return problem;
      continue;
    }
    const entry = expected.get(path);
    if (!entry) return `${path} is not in the manifest`;
    expected.delete(path);
    const problem = ownershipProblem(path, stats) ?? entryProblem(entry, stats);
    if (problem) return problem;
  }
  const missing = [...expected.keys()][0];
  return missing === undefined ? undefined : `${missing} is missing`;
}

function entryProblem(entry: Entry, stats: Stats): string | undefined {
  if (kindOf(stats) !== entry.kind) return `${entry.path} is a ${kindOf(stats)}, not a ${entry.kind}`;
  if (entry.kind === 'link') return undefined;
  if ((stats.mode & 0o7777) !== entry.mode)
    return `${entry.path} has mode ${(stats.mode & 0o7777).toString(8)}, not ${entry.mode.toString(8)}`;
  if (entry.kind === 'file' && stats.size !== entry.size)
    return `${entry.path} has ${stats.size} bytes, not ${entry.size}`;
  return undefined;
}

function ownershipProblem(path: string, stats: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) return `${path} belongs to uid ${stats.uid}, not ${uid}`;
  if (!stats.isSymbolicLink() && stats.mode & 0o022)
    return `${path} may be written by other users (mode ${(stats.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Readable by everyone, writable by this user only; what a program in it runs keeps its execute bit. */
function writeManifest(staging: string): void {
  const entries: Entry[] = [];
  for (const { path, stats } of walk(staging)) {
    const kind = kindOf(stats);
    if (kind === 'other') throw new Error(`${path} is neither a file, a folder nor a link`);
    const mode = kind === 'dir' || stats.mode & 0o111 ? 0o755 : 0o644;
    if (kind !== 'link') chmodSync(join(staging, path), mode);
    entries.push({ path, kind, mode: kind === 'link' ? 0 : mode, size: kind === 'file' ? stats.size : 0 });
  }
  chmodSync(staging, 0o755);
  writeFileSync(join(staging, MANIFEST), JSON.stringify(entries), { mode: 0o644 });
}

/** Every entry below `root` (the root itself not included), parents before children, links not followed. */
function* walk(root: string): Generator<{ path: string; stats: Stats }> {
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const stats = lstatSync(full);
      yield { path: relative(root, full), stats };
      if (stats.isDirectory()) pending.push(full);
    }
  }
}

function kindOf(stats: Stats): Entry['kind'] | 'other' {
  if (stats.isSymbolicLink()) return 'link';
  if (stats.isDirectory()) return 'dir';
  return stats.isFile() ? 'file' : 'other';
}

function assertOwnParent(parent: string): void {
  const stats = lstatSync(parent);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) {
    throw new Error(`${parent} must be a folder of uid ${uid}'s own, and is not: move it away`);
  }
  if (stats.mode & 0o022) chmodSync(parent, stats.mode & ~0o022);
}

/** Staging folders whose process died, killed while filling one. */
function removeDeadStagings(parent: string, name: string): void {
  for (const entry of readdirSync(parent)) {
    const owner = new RegExp(
      `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(?:partial|discarded)-(\\d+)-[0-9a-f]+$`,
    ).exec(entry);
    if (owner && !isAlive(Number(owner[1]))) removeQuietly(join(parent, entry));
  }
}

/** Moved aside first, so that the final name is free even when another user's files in it cannot be deleted. */
function discard(target: string, log: (message: string) => void): void {
  const aside = `${target}.discarded-${process.pid}-${randomBytes(4).toString('hex')}`;
  renameSync(target, aside);
  const failure = removeQuietly(aside);
  if (failure) log(`could not delete ${aside}: ${failure}`);
}

/** Another user's files in a folder of ours may not be deletable: that must not stop a start. */
function removeQuietly(path: string): string | undefined {
  try {
    rmSync(path, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
