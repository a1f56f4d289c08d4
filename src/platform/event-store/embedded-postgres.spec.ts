import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres, SERVER_HOME } from './embedded-postgres';

describe('EmbeddedPostgres refuses a data folder it cannot serve, with the reason', () => {
  it('whose socket path would not fit in 107 bytes', async () => {
    const long = join(tmpdir(), 'x'.repeat(90));
    await expect(EmbeddedPostgres.start(long)).rejects.toThrow(/^DATA_DIR \S+ is too long: the embedded database's socket \S+ would be over 107 bytes; choose a shorter folder$/);
  });
});

(process.getuid?.() === 0 ? describe : describe.skip)('EmbeddedPostgres as root', () => {
  let privateParent: string;
  beforeEach(() => {
    privateParent = mkdtempSync(join(tmpdir(), 'crcs-private-'));
  });
  afterEach(() => rmSync(privateParent, { recursive: true, force: true }));

  it('serves a data folder in a 0700 folder the postgres OS user cannot reach, from binaries and a cluster it can', async () => {
    expect(statSync(privateParent).mode & 0o777).toBe(0o700);
    const dataDir = join(privateParent, 'data');
    const server = await EmbeddedPostgres.start(dataDir);
    const cluster = readlinkSync(join(dataDir, 'postgres'));
    try {
      expect(dirname(dirname(cluster))).toBe(join(SERVER_HOME, 'clusters'));
      expect(readFileSync(join(dirname(cluster), 'data-folder'), 'utf8')).toBe(`${dataDir}\n`);
      const client = new Client({ connectionString: server.url });
      await client.connect();
      const [{ user }] = (await client.query<{ user: string }>('select current_user as user')).rows;
      await client.end();
      expect(user).toBe('postgres');
      const pid = Number(readFileSync(join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const exe = readlinkSync(`/proc/${pid}/exe`);
      expect(exe.startsWith(`${SERVER_HOME}/postgres-`)).toBe(true);
      // Root's copy: nobody else may write the binary or the folders it runs from.
      for (let path = exe; path !== '/'; path = dirname(path)) {
        const stats = lstatSync(path);
        expect({ path, uid: stats.uid, othersWrite: (stats.mode & 0o022) !== 0 }).toEqual({ path, uid: 0, othersWrite: path === '/tmp' });
      }
    } finally {
      await server.stop();
      rmSync(dirname(cluster), { recursive: true, force: true });
    }
  });
});
