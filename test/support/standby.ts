import { spawnSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { serverAccount } from '../../src/platform/event-store/embedded-postgres';
import { isAlive } from '../../src/platform/processes';

/**
 * The standby's replication slot on the primary is named after the run's process: the primary keeps
 * the WAL it has not received yet, so it catches up after a test stops it however busy the shared
 * primary is. A run that died without its teardown leaves its slot; the next run drops it.
 */
const SLOT_PREFIX = 'crcs_test_standby_';

/** What a standby needs at least as much of as its primary, or it refuses to start (hot standby). */
const MATCHED_SETTINGS = [
  'max_connections',
  'max_prepared_transactions',
  'max_locks_per_transaction',
  'max_wal_senders',
  'max_worker_processes',
];

/**
 * A real streaming standby of the DATABASE_URL server: made by the global set-up with
 * `pg_basebackup -R` into the run's temporary folder, started on a free port of 127.0.0.1, stopped
 * and removed by the teardown. Its server runs as the `postgres` OS user when the tests run as root.
 * Suites find it with `Standby.ofRun()` and may pause its replay, stop it and start it again.
 */
export class Standby {
  private constructor(
    private readonly primaryUrl: string,
    /** The standby's data folder; its log is beside it. */
    readonly dir: string,
    readonly port: number,
    readonly bindir: string,
  ) {}

  /** The standby the global set-up made, or undefined when the run has no DATABASE_URL. */
  static ofRun(): Standby | undefined {
    const { CRCS_STANDBY_DIR: dir, CRCS_STANDBY_PORT: port, CRCS_STANDBY_BINDIR: bindir } = process.env;
    return dir && port && bindir ? new Standby(process.env.DATABASE_URL!, dir, Number(port), bindir) : undefined;
  }

  /** pg_basebackup of `primaryUrl`'s server into `dir`, then starts it; the primary must take replication connections from here. */
  static async create(primaryUrl: string, dir: string): Promise<Standby> {
    const primary = await primarySettings(primaryUrl);
    if (primary.wal_level === 'minimal')
      throw new Error(
        `the DATABASE_URL server has wal_level minimal: a standby needs replica (set it and restart the server)`,
      );
    await dropSlotsOfDeadRuns(primaryUrl);
    const standby = new Standby(primaryUrl, dir, await freePort(), binariesOf(Number(primary.server_version_num)));
    mkdirSync(dir, { mode: 0o700 });
    standby.own(dir);
    standby.run(
      'pg_basebackup',
      [
        '--dbname',
        primaryUrl,
        '--pgdata',
        dir,
        '--write-recovery-conf',
        '--wal-method=stream',
        '--checkpoint=fast',
        '--no-sync',
        '--create-slot',
        `--slot=${SLOT_PREFIX}${process.pid}`,
      ],
      (stderr) =>
        /pg_hba.conf|replication connection/.test(stderr)
          ? `${stderr}\nThe DATABASE_URL server must take replication connections from this machine: add \`host replication all 127.0.0.1/32 trust\` to its pg_hba.conf and reload it (.ci/run does)`
          : stderr,
    );
    // The primary's own files may live elsewhere (Debian keeps them in /etc) or say what only it needs:
    // the standby gets its own, on its port, its socket in its folder, trusted from this machine only.
    const settings = {
      port: String(standby.port),
      listen_addresses: "'127.0.0.1'",
      unix_socket_directories: `'${dir}'`,
      hot_standby: 'on',
      // The primary keeps the rows a long read here still sees: vacuum does not cancel the export.
      hot_standby_feedback: 'on',
      shared_buffers: '32MB',
      ...Object.fromEntries(MATCHED_SETTINGS.map((name) => [name, primary[name]])),
    };
    standby.write(
      'postgresql.conf',
      Object.entries(settings)
        .map(([name, value]) => `${name} = ${value}\n`)
        .join(''),
    );
    standby.write('pg_hba.conf', 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    standby.write('pg_ident.conf', '');
    standby.start();
    return standby;
  }

  /** The standby's `database` (by default its `postgres` database): every database of the primary is on it. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts it and waits until it takes read-only connections. */
  start(): void {
    const log = `${this.dir}.log`;
    closeSync(openSync(log, 'a'));
    this.own(log);
    this.run(
      'pg_ctl',
      ['--pgdata', this.dir, '--log', log, '--wait', '--timeout=60', 'start'],
      (stderr) => `${stderr}\n${readFileSync(log, 'utf8').trim().split('\n').slice(-5).join('\n')}`,
    );
  }

  /** A fast shutdown: sessions are cut, the server is gone when this returns. */
  stop(): void {
    this.run('pg_ctl', ['--pgdata', this.dir, '--mode=fast', '--wait', '--timeout=60', 'stop']);
  }

  /** Stops it if it runs, drops its slot and deletes its folder and log. */
  async remove(): Promise<void> {
    if (existsSync(join(this.dir, 'postmaster.pid'))) this.stop();
    await withClient(this.primaryUrl, (client) =>
      client.query('select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1', [
        `${SLOT_PREFIX}${process.pid}`,
      ]),
    );
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(`${this.dir}.log`, { force: true });
  }

  /** `pg_wal_replay_pause()` or `pg_wal_replay_resume()`; pausing waits until replay has stopped. */
  async replay(action: 'pause' | 'resume'): Promise<void> {
    await withClient(this.url(), async (client) => {
      await client.query(`select pg_wal_replay_${action}()`);
      if (action === 'pause') {
        while (
          (await client.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state')).rows[0].state !==
          'paused'
        ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    });
  }

  /** Until it has replayed all that its primary has flushed now. */
  async replayed(): Promise<void> {
    const { lsn } = await withClient(
      this.primaryUrl,
      async (client) => (await client.query<{ lsn: string }>('select pg_current_wal_flush_lsn()::text as lsn')).rows[0],
    );
    await withClient(this.url(), async (client) => {
      while (
        !(await client.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn])).rows[0]
          .done
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
  }

  private run(program: string, args: string[], explain: (stderr: string) => string = (stderr) => stderr): void {
    const result = spawnSync(join(this.bindir, program), args, {
      ...serverAccount(),
      cwd: this.dir.replace(/\/[^/]+$/, ''),
      env: { PATH: process.env.PATH, LC_ALL: 'C', TZ: 'UTC' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0)
      throw new Error(
        `${program} ${args.at(-1)} failed for the test standby: ${explain((result.stderr || String(result.error)).trim())}`,
      );
  }

  private write(name: string, text: string): void {
    writeFileSync(join(this.dir, name), text);
    this.own(join(this.dir, name));
  }

  private own(path: string): void {
    const account = serverAccount();
    if (account) chownSync(path, account.uid, account.gid);
  }
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function primarySettings(url: string): Promise<Record<string, string>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string; setting: string }>(
      'select name, setting from pg_settings where name = any($1)',
      [['server_version_num', 'wal_level', ...MATCHED_SETTINGS]],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
  });
}

/** Slots of runs whose process is gone, and no standby streams from: the primary would keep WAL for them for ever. */
async function dropSlotsOfDeadRuns(url: string): Promise<void> {
  await withClient(url, async (client) => {
    const { rows } = await client.query<{ slot_name: string }>(
      'select slot_name from pg_replication_slots where not active and starts_with(slot_name, $1)',
      [SLOT_PREFIX],
    );
    for (const { slot_name: slotName } of rows) {
      const pid = Number(slotName.slice(SLOT_PREFIX.length));
      if (!isAlive(pid)) await client.query('select pg_drop_replication_slot($1)', [slotName]);
    }
  });
}

/** The binaries of the primary's major version: a standby runs the same major as its primary. */
function binariesOf(versionNum: number): string {
  const major = Math.floor(versionNum / 10_000);
  const candidates = [
    `/usr/lib/postgresql/${major}/bin`,
    spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' }).stdout?.trim(),
  ].filter((dir): dir is string => Boolean(dir));
  for (const bindir of candidates) {
    const version = spawnSync(join(bindir, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout ?? '';
    if (new RegExp(`\\(PostgreSQL\\) ${major}\\.`).test(version)) return bindir;
  }
  throw new Error(
    `the test standby needs PostgreSQL ${major}'s server binaries (pg_basebackup, pg_ctl, postgres), as the DATABASE_URL server runs ${major}; none in ${candidates.join(', ')}`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
