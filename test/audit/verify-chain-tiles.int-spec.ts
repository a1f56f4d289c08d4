import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { CHECKPOINT_EVENT_TYPE, openNote, parseCheckpoint, parseVerifierKey } from '@crcs/tlog';
import { rfc9162 } from '../../packages/tlog/test/rfc9162';
import { rebuildTree, rewriteTail } from '../support/tampering';
import { call } from '../support/auth';
import { exportLog, runVerifier } from '../support/audit';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { appendEntries } from '../support/transparency-log';

/**
 * `npm run verify-chain -- checkpoint` and `-- tiles` as an auditor runs them: against the service
 * over real HTTP, with the vkey and checkpoints kept from before, and after SQL rewrites of the log.
 */
describe('verify-chain checkpoint and tiles', () => {
  let app: TestApp;
  let db: Database;
  let dir: string;
  let vkeyFile: string;
  let vkey: string;
  /** An export of the log kept from before the attacks, as an auditor keeps one. */
  let exportFile: string;
  let exported: { position: number; hash: string }[];
  const signingKey = newSigningKey();
  const kept: string[] = [];
  const keptSizes: number[] = [];
  const sizeOf = (note: string) => parseCheckpoint(openNote(note, [parseVerifierKey(vkey)]).text).size;
  const leaves = async (count: number) =>
    (await db.query<{ hash: string }>('select hash from events where position <= $1 order by position', [count])).map(
      (row) => Buffer.from(row.hash, 'hex'),
    );
  const env = () => ({ CRCS_API_KEY: TEST_ADMIN_KEY });
  const logUrl = () => `${app.baseUrl}/log`;
  const checkpointNote = async () =>
    (await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body as string;
  const tiles = () =>
    runVerifier(['tiles', logUrl(), '--vkey', vkeyFile, ...kept.flatMap((file) => ['--checkpoint', file])], env());

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crcs-tiles-'));
    app = await startTestApp({
      env: {
        CHECKPOINT_SIGNING_KEY: signingKey.export({ format: 'pem', type: 'pkcs8' }) as string,
        CHECKPOINT_INTERVAL: '60',
        LOG_ORIGIN: 'crcs.example/verify-tiles',
      },
    });
    db = app.app.get(DATABASE);
    vkeyFile = join(dir, 'log.vkey');
    vkey = (await call(app, 'GET', '/log/vkey', { key: TEST_ADMIN_KEY })).body;
    await writeFile(vkeyFile, vkey);
    for (const count of [70, 200]) {
      await appendEntries(app, count);
      kept.push(join(dir, `checkpoint-${kept.length}`));
      const note = await checkpointNote();
      await writeFile(kept.at(-1)!, note);
      keptSizes.push(sizeOf(note));
    }
    await appendEntries(app, 90);
    exportFile = join(dir, 'audit-log.ndjson');
    const ndjson = await exportLog(app);
    await writeFile(exportFile, ndjson);
    exported = ndjson
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { position: number; hash: string });
  });

  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('checks a kept checkpoint against the vkey, and refuses one with a changed size', async () => {
    const ok = await runVerifier(['checkpoint', kept[0], '--vkey', vkeyFile]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      kind: 'checkpoint',
      holds: true,
      origin: 'crcs.example/verify-tiles',
    });
    const forged = join(dir, 'forged');
    await writeFile(
      forged,
      (await checkpointNote()).replace(/\n(\d+)\n/, (_, size: string) => `\n${Number(size) + 1}\n`),
    );
    const refused = await runVerifier(['checkpoint', forged, '--vkey', vkeyFile]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe('FAILED: the signature of crcs.example/verify-tiles does not verify\n');
  });

  it('verifies the whole log from its tiles, consistent with the checkpoints kept', async () => {
    const { status, stdout, stderr } = await tiles();
    expect({ status, stderr }).toEqual({
      status: 0,
      stderr: expect.stringMatching(
        /^OK: \d+ entries of crcs.example\/verify-tiles give its signed root, every tile checked, consistent with 2 kept checkpoints\n$/,
      ),
    });
    const result = JSON.parse(stdout);
    expect(result.tree_size).toBeGreaterThan(256);
    expect(result.consistent_with).toHaveLength(2);

    const withExport = await runVerifier(['tiles', logUrl(), '--vkey', vkeyFile, '--export', exportFile], env());
    // The export was taken after the checkpoint: its entries up to the checkpoint's size are compared.
    expect(withExport.stderr).toBe(
      `OK: ${result.tree_size} entries of crcs.example/verify-tiles give its signed root, every tile checked, consistent with 0 kept checkpoints and the ${result.tree_size} entries of your export it covers\n`,
    );
    expect(withExport.status).toBe(0);
    expect(exported.length).toBeGreaterThan(result.tree_size);
    expect(JSON.parse(withExport.stdout)).toMatchObject({ holds: true, export_entries_compared: result.tree_size });
  });

  it('refuses an export that does not verify on its own', async () => {
    const edited = join(dir, 'edited-export.ndjson');
    const lines = (await readFile(exportFile, 'utf8')).split('\n');
    const changed = lines[4].replace(/"recorded_at":"[^"]+"/, '"recorded_at":"2020-01-01T00:00:00.000Z"');
    expect(changed).not.toBe(lines[4]);
    lines[4] = changed;
    await writeFile(edited, lines.join('\n'));
    const refused = await runVerifier(['tiles', logUrl(), '--vkey', vkeyFile, '--export', edited], env());
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({
      status: 2,
      stderr: `verify-chain: --export ${edited} does not verify on its own (a break): npm run verify-chain -- ${edited} shows where\n`,
    });
  });

  it('flags a tree node or an entry rewritten by SQL', async () => {
    const size = sizeOf(await checkpointNote());
    await db.query("update merkle_nodes set hash = decode(repeat('ab', 32), 'hex') where level = 8 and idx = 0");
    const rewrittenNode = await tiles();
    await db.query('update merkle_nodes set hash = $1 where level = 8 and idx = 0', [rfc9162.mth(await leaves(256))]);
    expect(rewrittenNode.status).toBe(1);
    expect(rewrittenNode.stderr).toBe(
      `FAILED: tile/1/000.p/${Math.floor(size / 256)} does not hold the tree's hashes\n`,
    );

    // The first entry this test appended (the log opens with the boundary and the imported rules): the
    // verifier reaches the first kept checkpoint's size before it compares that entry's level-0 tile.
    const [{ position }] = await db.query<{ position: string }>(
      "select min(position) as position from events where event_type = 'TlogTestEntry'",
    );
    const at = Number(position);
    const tile = Math.floor((at - 1) / 256);
    expect(at).toBeLessThanOrEqual(keptSizes[0]);
    expect(Math.floor((keptSizes[0] - 1) / 256)).toBe(tile);
    expect((tile + 1) * 256).toBeLessThanOrEqual(size);
    const [entry] = await db.query<{ hash: string }>('select hash from events where position = $1', [at]);
    await db.query("update events set hash = repeat('ee', 32) where position = $1", [at]);
    const rewrittenEntry = await tiles();
    const alone = await runVerifier(['tiles', logUrl(), '--vkey', vkeyFile], env());
    await db.query('update events set hash = $1 where position = $2', [entry.hash, at]);
    expect(rewrittenEntry.status).toBe(1);
    expect(rewrittenEntry.stderr).toBe(
      `FAILED: the log does not extend the checkpoint of tree size ${keptSizes[0]} you kept: its first ${keptSizes[0]} entries give another root (history rewritten or forked)\n`,
    );
    // Without kept checkpoints the stored tree still disagrees with the rewritten entry.
    expect(alone.status).toBe(1);
    expect(alone.stderr).toBe(
      `FAILED: tile/0/${String(tile).padStart(3, '0')} does not hold the tree's hashes of its entries\n`,
    );
    expect((await tiles()).status).toBe(0);
  });

  it('flags a log rolled back behind a kept checkpoint', async () => {
    const newest = await db.query<{ position: string }>(
      'select position from events where event_type = $1 and position > $2',
      [CHECKPOINT_EVENT_TYPE, keptSizes[1]],
    );
    const saved = await db.query('select * from events where position = any($1::bigint[])', [
      newest.map((row) => row.position),
    ]);
    await db.query('delete from events where position = any($1::bigint[])', [newest.map((row) => row.position)]);
    const rolledBack = await tiles();
    await db.query('insert into events select * from json_populate_recordset(null::events, $1)', [
      JSON.stringify(saved),
    ]);
    expect(rolledBack.status).toBe(1);
    expect(rolledBack.stderr).toMatch(
      new RegExp(
        `^FAILED: the log's checkpoint \\(tree size \\d+\\) is behind one you kept \\(tree size ${keptSizes[1]}\\): the log was rolled back or cut\n$`,
      ),
    );
  });

  it('flags a history rewritten consistently and re-signed with the log’s own key, by the checkpoints or the export kept, and only by them', async () => {
    await rewriteTail(db, 10, ['i'], 999_999, { signingKey });
    await rebuildTree(db);
    const alone = await runVerifier(['tiles', logUrl(), '--vkey', vkeyFile], env());
    expect(alone.status).toBe(0);
    const withKept = await tiles();
    expect(withKept.status).toBe(1);
    expect(withKept.stderr).toBe(
      `FAILED: the log does not extend the checkpoint of tree size ${keptSizes[0]} you kept: its first ${keptSizes[0]} entries give another root (history rewritten or forked)\n`,
    );
    // An export kept from before catches it as well, at the first entry rewritten, and says what each holds.
    const [now] = await db.query<{ hash: string }>('select hash from events where position = 10');
    const withExport = await runVerifier(['tiles', logUrl(), '--vkey', vkeyFile, '--export', exportFile], env());
    expect({ status: withExport.status, stderr: withExport.stderr }).toEqual({
      status: 1,
      stderr: `FAILED: the entry at position 10 is ${now.hash} in the log, ${exported[9].hash} in your export: the log serves another history than the one you kept\n`,
    });
    expect(exported[9].position).toBe(10);
    expect(now.hash).not.toBe(exported[9].hash);
  });
});
