import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopServer } from '../../src/platform/event-store/embedded-postgres';
import { isAlive } from '../../src/platform/processes';
import { makeRunFolder, reapDeadRuns } from '../support/run-folder';
import { childEnv } from '../support/child-env';

const ROOT = join(__dirname, '../..');

/** An embedded server left running by a process that ended without stopping it, as a killed test run leaves one. */
function orphanServer(dataDir: string): number {
  const started = spawnSync(
    process.execPath,
    [
      '-e',
      `require('./dist/src/platform/event-store/embedded-postgres').EmbeddedPostgres.start(${JSON.stringify(dataDir)}).then(() => process.exit(0))`,
    ],
    { cwd: ROOT, encoding: 'utf8', env: childEnv({ LOG_LEVEL: 'silent' }), timeout: 120_000 },
  );
  if (started.status !== 0) throw new Error(`the server did not start: ${started.stderr}`);
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** What an interrupted `npm test` leaves behind, and the next run's clean-up (test/support/run-folder.ts). */
describe('the test run folder', () => {
  let base: string;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'crcs-runs-'));
    // As the system's temporary folder is: the servers' OS account must reach the runs in it.
    chmodSync(base, 0o711);
  });

  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("of a run that died is reaped by the next run: its servers stopped, even one whose folder is gone, the folder removed; a live run's is left alone", async () => {
    const dead = makeRunFolder(base);
    // Its owner is a process that has ended.
    writeFileSync(join(dead, 'run-owner'), `${spawnSync('true').pid}:0`);
    const live = makeRunFolder(base);
    const [left, underDeleted, kept] = [
      orphanServer(join(dead, 'a')),
      orphanServer(join(dead, 'b')),
      orphanServer(join(live, 'c')),
    ];
    // A test that deleted its data folder with the server still running in it.
    rmSync(join(dead, 'b'), { recursive: true, force: true });
    try {
      expect([left, underDeleted, kept].map(isAlive)).toEqual([true, true, true]);
      expect(await reapDeadRuns(base)).toEqual([dead]);
      expect({ left: isAlive(left), underDeleted: isAlive(underDeleted), folder: existsSync(dead) }).toEqual({
        left: false,
        underDeleted: false,
        folder: false,
      });
      expect({ kept: isAlive(kept), folder: existsSync(join(live, 'c', 'postgres')) }).toEqual({
        kept: true,
        folder: true,
      });
    } finally {
      await stopServer(join(live, 'c', 'postgres'), () => undefined);
    }
  }, 300_000);
});
