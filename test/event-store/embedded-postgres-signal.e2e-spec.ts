import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverPid, stopServer } from '../../src/platform/event-store/embedded-postgres';
import { isAlive } from '../../src/platform/processes';

/**
 * The service signals the pid it reads from `postmaster.pid`, a file the server's OS user can write
 * (as root, the `postgres` user): it signals only the server of that cluster. The decoys are copies
 * of `sleep` named `postgres`, so that only their owner and working folder tell them from a server.
 */
describe('the pid in postmaster.pid is signalled only when it is the cluster’s server', () => {
  let dir: string;
  let cluster: string;
  let decoyBinary: string;
  const decoys: ChildProcess[] = [];

  const decoy = (options: { cwd: string; uid?: number }): ChildProcess => {
    const child = spawn(decoyBinary, ['600'], { ...options, stdio: 'ignore' });
    decoys.push(child);
    return child;
  };
  const pidFile = (pid: number) => writeFileSync(join(cluster, 'postmaster.pid'), `${pid}\n${cluster}\n`);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crcs-pidfile-'));
    cluster = join(dir, 'postgres');
    mkdirSync(cluster);
    mkdirSync(join(dir, 'bin'));
    decoyBinary = join(dir, 'bin', 'postgres');
    copyFileSync('/bin/sleep', decoyBinary);
  });

  afterEach(async () => {
    for (const child of decoys.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves alone a process named postgres that works in another folder, and removes the file', async () => {
    const other = decoy({ cwd: dir });
    pidFile(other.pid!);
    const warnings: string[] = [];
    expect(serverPid(cluster, (message) => warnings.push(message))).toBeUndefined();
    pidFile(other.pid!);
    await stopServer(cluster, (message) => warnings.push(message));
    expect(isAlive(other.pid!)).toBe(true);
    expect(existsSync(join(cluster, 'postmaster.pid'))).toBe(false);
    expect(warnings).toEqual(
      Array(2).fill(
        `removing the stale ${join(cluster, 'postmaster.pid')}: its pid ${other.pid} is not this cluster's server`,
      ),
    );
  });

  (process.getuid?.() === 0 ? it : it.skip)(
    'as root, leaves alone a process working in the cluster that another user than the cluster’s owner runs',
    async () => {
      // The cluster is the postgres user's (here nobody's); the process is root's.
      chownSync(cluster, 65534, 65534);
      const rootOwned = decoy({ cwd: cluster });
      pidFile(rootOwned.pid!);
      await stopServer(cluster, () => undefined);
      expect(isAlive(rootOwned.pid!)).toBe(true);
    },
  );

  it('stops the process that is the server: named postgres, the cluster owner’s, working in the cluster', async () => {
    const server = decoy({ cwd: cluster });
    const exited = new Promise((resolve) => server.on('exit', (_code, signal) => resolve(signal)));
    pidFile(server.pid!);
    expect(serverPid(cluster, () => undefined)).toBe(server.pid);
    await stopServer(cluster, () => undefined);
    expect(await exited).toBe('SIGINT');
  });
});
