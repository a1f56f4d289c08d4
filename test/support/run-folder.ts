import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { SERVER_HOME, stopPostmaster, stopServer } from '../../src/platform/event-store/embedded-postgres';
import { isAlive } from '../../src/platform/processes';

const PREFIX = 'crcs-test-';
/** Names the process that made the folder, by pid and start time, so that a reused pid does not pass for it. */
const OWNER_FILE = 'run-owner';
/** Links to relocated clusters sit at most this deep in a run folder (run/<test folder>/<data folder>/postgres). */
const MAX_DEPTH = 4;

/**
 * The one folder a test run writes to: every test's folders, the embedded servers' clusters, the
 * browser's profiles. Removing it cleans the run up; a run killed before it could is found by the
 * next one, by the owner file, and reaped.
 */
export function makeRunFolder(base: string): string {
  const dir = mkdtempSync(join(base, PREFIX));
  // Searchable (not listable) for the server's OS account when the tests run as root.
  chmodSync(dir, 0o711);
  writeFileSync(join(dir, OWNER_FILE), processIdentity(process.pid) ?? '');
  return dir;
}

/**
 * Stops every embedded server of the run, then removes its folder and the clusters it links to in
 * SERVER_HOME. A server is found by its working directory, its cluster, so one whose folder a test
 * already deleted (a service killed before it could stop its server) is stopped too.
 */
export async function removeRunFolder(dir: string): Promise<void> {
  const warn = (message: string) => console.warn(message);
  const linked = linkedClusters(dir);
  for (const cluster of linked) await stopServer(cluster, warn);
  for (const pid of postmasters((cwd) => cwd === dir || cwd.startsWith(`${dir}/`))) await stopPostmaster(pid, warn);
  for (const cluster of linked) rmSync(dirname(cluster), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}

/**
 * On Ctrl-C there is no time to wait: every server of the run gets an immediate shutdown (SIGQUIT)
 * and the folder goes at once, before the process ends. The next run stops one that started too late.
 */
export function abandonRunFolder(dir: string): void {
  const linked = linkedClusters(dir);
  const inRun = (cwd: string) => cwd === dir || cwd.startsWith(`${dir}/`) || linked.includes(cwd);
  for (const pid of postmasters(inRun)) {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // It ended on its own.
    }
  }
  for (const cluster of linked) rmSync(dirname(cluster), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}

/** The run folders of this user in `base` whose run died (killed, or interrupted in its set-up): their servers stopped, the folders removed. */
export async function reapDeadRuns(base: string): Promise<string[]> {
  const reaped: string[] = [];
  for (const name of readdirSync(base)) {
    const dir = join(base, name);
    if (!name.startsWith(PREFIX) || lstatSync(dir).uid !== process.getuid?.()) continue;
    let owner: string;
    try {
      owner = readFileSync(join(dir, OWNER_FILE), 'utf8');
    } catch {
      continue; // Not a run folder of this kind, or one being made this instant.
    }
    if (processIdentity(Number(owner.split(':')[0])) === owner) continue;
    await removeRunFolder(dir);
    reaped.push(dir);
  }
  // A server that started while an interrupted run was removing its folder outlives the folder.
  const inRemovedRun = (cwd: string) => {
    const [run] = relative(base, cwd).split('/');
    return run.startsWith(PREFIX) && !existsSync(join(base, run));
  };
  for (const pid of postmasters(inRemovedRun)) await stopPostmaster(pid, (message) => console.warn(message));
  return reaped;
}

/** Clusters that data folders in `dir` had made in SERVER_HOME (as root, out of the postgres user's reach); never a link elsewhere. */
function linkedClusters(dir: string, depth = 0): string[] {
  if (depth > MAX_DEPTH) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return linkedClusters(path, depth + 1);
    if (!entry.isSymbolicLink() || entry.name !== 'postgres') return [];
    const cluster = resolve(dir, readlinkSync(path));
    return dirname(dirname(cluster)) === join(SERVER_HOME, 'clusters') ? [cluster] : [];
  });
}

/** PostgreSQL servers (not their backends) whose working directory, their cluster, passes `where`, deleted or not (Linux). */
function postmasters(where: (cwd: string) => boolean): number[] {
  if (!existsSync('/proc/self')) return [];
  const isPostgres = (pid: number | string) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  // A server in another mount namespace (a run with a private /tmp) has a working directory this run cannot see:
  // gone from here is not gone, so it is not ours to judge.
  const namespace = readlinkSync('/proc/self/ns/mnt');
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      if (readlinkSync(`/proc/${name}/ns/mnt`) !== namespace) return [];
      const cwd = readlinkSync(`/proc/${name}/cwd`).replace(/ \(deleted\)$/, '');
      if (!isPostgres(name) || !where(cwd)) return [];
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return isPostgres(parent) ? [] : [Number(name)];
    } catch {
      return []; // Gone meanwhile, or not ours to read.
    }
  });
}

/** `pid:start time` from /proc (Linux); the pid alone elsewhere; undefined when no such process runs. */
function processIdentity(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces and parentheses; the start time is the 22nd field.
    return `${pid}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    if (existsSync('/proc/self')) return undefined;
    return isAlive(pid) ? String(pid) : undefined;
  }
}
