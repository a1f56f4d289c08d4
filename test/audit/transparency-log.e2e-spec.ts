import { createPublicKey } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogOriginMismatchError } from '../../src/platform/event-store/log-origin';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import {
  CHECKPOINT_EVENT_TYPE,
  type CheckpointData,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  signNote,
  TILE_WIDTH,
  parseEntryBundle,
  tilePath,
} from '@crcs/tlog';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { rfc9162 } from '../../packages/tlog/test/rfc9162';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { appendEntries, getLog, publishedSizes } from '../support/transparency-log';
import { ServiceProcess } from '../support/service-process';

const pem = () => newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;

/** docs/design.md "Transparency in the standard formats (C2SP)": the origin, checkpoint notes and tiles, over real HTTP. */
describe('the log origin', () => {
  let db: TestDatabase;
  let app: TestApp | undefined;

  beforeEach(async () => {
    db = await createTestDatabase('embedded');
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
    await db.drop();
  });

  const start = (env: Record<string, string> = {}) =>
    startTestApp({ env: { DATABASE_URL: db.url, CHECKPOINT_SIGNING_KEY: signingKey, ...env } });
  const signingKey = pem();
  const keyAnswer = async (running: TestApp) =>
    (await call(running, 'GET', '/admin/checkpoint-key', { key: TEST_ADMIN_KEY })).body;

  it('is made at the first start as <hostname>/crcs/<random id>, kept, and names the verifier key', async () => {
    app = await start();
    const { origin, vkey } = await keyAnswer(app);
    expect(origin).toMatch(/^[a-z0-9.-]+\/crcs\/[0-9a-f]{12}$/);
    expect(parseVerifierKey(vkey)).toMatchObject({ name: origin });
    expect(parseVerifierKey(vkey).key.export({ format: 'der', type: 'spki' })).toEqual(
      createPublicKey(signingKey).export({ format: 'der', type: 'spki' }),
    );
    await app.close();
    app = await start();
    expect((await keyAnswer(app)).origin).toBe(origin);
    await app.close();
    app = await start({ LOG_ORIGIN: origin });
    expect((await keyAnswer(app)).vkey).toBe(vkey);
  });

  it('gives no checkpoint note before the first head is signed', async () => {
    app = await start();
    expect(await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).toMatchObject({
      status: 404,
      body: {
        error: 'NOT_FOUND',
        message:
          'No checkpoint is signed yet: the first comes at most CHECKPOINT_MAX_AGE_S seconds after the first entries',
      },
    });
    expect((await call(app, 'GET', '/log/tile/0/000.p/1', { key: TEST_ADMIN_KEY })).status).toBe(404);
  });

  it('is LOG_ORIGIN at the first start, and a later start with another LOG_ORIGIN is refused, saying why', async () => {
    app = await start({ LOG_ORIGIN: 'rounding.example.com/store-12' });
    expect((await keyAnswer(app)).origin).toBe('rounding.example.com/store-12');
    await app.close();
    app = undefined;
    const refused = start({ LOG_ORIGIN: 'rounding.example.com/store-13' });
    await expect(refused).rejects.toThrow(LogOriginMismatchError);
    await expect(refused).rejects.toThrow(
      'LOG_ORIGIN is "rounding.example.com/store-13", but this log\'s origin is "rounding.example.com/store-12", fixed at its first start: ' +
        'a log keeps its name for good (its checkpoints, verifier key and witnesses name it). Unset LOG_ORIGIN or set it to the stored origin',
    );
  });

  it('stops `npm start` with that one line and no stack when LOG_ORIGIN is not the stored origin', async () => {
    // Its own data folder: the witness file lives there, and one left from another log would stop the signer.
    const dataDir = await mkdtemp(join(tmpdir(), 'crcs-origin-'));
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      CHECKPOINT_SIGNING_KEY: signingKey,
      LOG_LEVEL: 'silent',
    };
    const first = await ServiceProcess.start({ env: { ...env, LOG_ORIGIN: 'rounding.example.com/store-12' } });
    expect(await first.stop()).toBe(0);
    const refused = await ServiceProcess.start({
      env: { ...env, LOG_ORIGIN: 'rounding.example.com/store-13' },
      startupLimitMs: 120_000,
    }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    await rm(dataDir, { recursive: true, force: true });
    expect(refused).toBe(
      'the service exited during start\n' +
        'LOG_ORIGIN is "rounding.example.com/store-13", but this log\'s origin is "rounding.example.com/store-12", fixed at its first start: ' +
        'a log keeps its name for good (its checkpoints, verifier key and witnesses name it). Unset LOG_ORIGIN or set it to the stored origin\n',
    );
  }, 300_000);
});

describe('checkpoints and tiles', () => {
  let app: TestApp;
  let vkey: string;

  beforeAll(async () => {
    app = await startTestApp({
      env: { CHECKPOINT_SIGNING_KEY: pem(), CHECKPOINT_INTERVAL: '97', LOG_ORIGIN: 'crcs.example/tlog-test' },
    });
    vkey = (await call(app, 'GET', '/log/vkey', { key: TEST_ADMIN_KEY })).body.trim();
    await appendEntries(app, 600);
  });

  afterAll(async () => {
    await app?.close();
  });

  const latest = async () => {
    const answer = await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY });
    expect(answer.status).toBe(200);
    return { answer, checkpoint: parseCheckpoint(openNote(answer.body, [parseVerifierKey(vkey)]).text) };
  };

  it('serves the latest signed tree head as a checkpoint note that verifies with the vkey, not cached', async () => {
    const { answer, checkpoint } = await latest();
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const head = (await call(app, 'GET', '/admin/audit/tree-head', { key: TEST_ADMIN_KEY })).body;
    expect(checkpoint).toEqual({
      origin: 'crcs.example/tlog-test',
      size: head.tree_size,
      root: Buffer.from(head.root_hash, 'hex'),
    });
    expect(checkpoint.size).toBe((await publishedSizes(app)).at(-1));
    // Ed25519 is deterministic: the same head is the same note.
    expect((await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body).toBe(answer.body);
    expect(answer.body.endsWith('\n')).toBe(true);
  });

  it('refuses a checkpoint note with a changed line or signature, and ignores signatures of other keys', async () => {
    const { answer } = await latest();
    const verifier = parseVerifierKey(vkey);
    const changedSize = answer.body.replace(/\n(\d+)\n/, (_: string, size: string) => `\n${Number(size) - 1}\n`);
    expect(() => openNote(changedSize, [verifier])).toThrow(`the signature of crcs.example/tlog-test does not verify`);
    const other = newSigningKey();
    expect(() =>
      openNote(
        signNote(
          'crcs.example/tlog-test\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n',
          'crcs.example/tlog-test',
          other,
        ),
        [verifier],
      ),
    ).toThrow('no signature of a known key');
    // A cosignature line of another key beside the log's is ignored, as signed-note says.
    const text = answer.body.slice(0, answer.body.lastIndexOf('\n\n') + 1);
    const cosigned = answer.body + signNote(text, 'witness.example/w1', other).slice(text.length + 1);
    expect(openNote(cosigned, [verifier]).signers).toEqual(['crcs.example/tlog-test']);
  });

  it('serves every tile of every published size, whose hashes are the tree’s and whose entries are the chain hashes', async () => {
    const sizes = await publishedSizes(app);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    const { checkpoint } = await latest();
    const leaves: Buffer[] = [];
    for (let index = 0; index * TILE_WIDTH < checkpoint.size; index++) {
      const width = Math.min(TILE_WIDTH, checkpoint.size - index * TILE_WIDTH);
      const bundle = await getLog(app, tilePath({ level: 'entries', index, width }));
      expect(bundle.status).toBe(200);
      leaves.push(...parseEntryBundle(bundle.bytes));
    }
    expect(leaves.every((leaf) => leaf.length === 32)).toBe(true);
    expect(rfc9162.mth(leaves)).toEqual(checkpoint.root);
    for (const size of sizes) {
      // The partial tiles of this size (tlog-tiles "Partial Tiles"), level 0 and level 1.
      const level0 = { level: 0, index: Math.floor(size / TILE_WIDTH), width: size % TILE_WIDTH };
      const level1 = { level: 1, index: 0, width: Math.floor(size / TILE_WIDTH) };
      for (const tile of [level0, level1].filter((t) => t.width > 0)) {
        const { status, bytes, headers } = await getLog(app, tilePath(tile));
        expect({ path: tilePath(tile), status }).toEqual({ path: tilePath(tile), status: 200 });
        expect(headers.get('content-type')).toBe('application/octet-stream');
        expect(headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
        const span = TILE_WIDTH ** tile.level;
        const expected = Array.from({ length: tile.width }, (_, i) =>
          rfc9162.mth(leaves.slice((tile.index * TILE_WIDTH + i) * span, (tile.index * TILE_WIDTH + i + 1) * span)),
        );
        expect(bytes).toEqual(Buffer.concat(expected));
      }
    }
    const full = await getLog(app, tilePath({ level: 0, index: 1, width: TILE_WIDTH }));
    expect(full.bytes).toEqual(Buffer.concat(leaves.slice(256, 512).map(rfc9162.leafHash)));
  });

  it.each([
    ['0/1234', 400],
    ['0/000.p/256', 400],
    ['0/000.p/0', 400],
    ['0/000.p/012', 400],
    ['64/000', 400],
    ['entries/x000/001', 400],
    ['x/000', 400],
    ['0/x001/000', 404],
    ['2/000.p/1', 404],
    ['entries/003', 404],
  ])('answers tile/%s with %d and an error body', async (path, status) => {
    const answer = await call(app, 'GET', `/log/tile/${path}`, { key: TEST_ADMIN_KEY });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual(
      expect.objectContaining({
        error: status === 400 ? 'VALIDATION_ERROR' : 'NOT_FOUND',
        message: expect.stringContaining(`tile/${path}`),
      }),
    );
  });

  it('signs no note for a checkpoint whose signature was changed in the database, and serves no tile that lost hashes: 503 and the chain alarm', async () => {
    const db = app.app.get<Database>(DATABASE);
    const [last] = await db.query<{ position: string; data: CheckpointData }>(
      'select position, data from events where event_type = $1 order by position desc limit 1',
      [CHECKPOINT_EVENT_TYPE],
    );
    const forged = { ...last.data, signature: Buffer.alloc(64, 7).toString('base64') };
    await db.query('update events set data = $2 where position = $1', [last.position, JSON.stringify(forged)]);
    const refused = await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY });
    await db.query('update events set data = $2 where position = $1', [last.position, JSON.stringify(last.data)]);
    expect(refused).toMatchObject({
      status: 503,
      body: {
        error: 'CHAIN_TAMPERED',
        message: `The audit log was tampered with: the last checkpoint in the log (${last.data.checkpoint}, tree size ${last.data.tree_size}) does not carry the log's valid signature. The chain alarm is raised`,
      },
    });

    const [node] = await db.query<{ hash: Buffer }>(
      'delete from merkle_nodes where level = 0 and idx = 3 returning hash',
    );
    const short = await call(app, 'GET', '/log/tile/0/000', { key: TEST_ADMIN_KEY });
    await db.query('insert into merkle_nodes (level, idx, hash) values (0, 3, $1)', [node.hash]);
    expect(short).toMatchObject({
      status: 503,
      body: {
        error: 'CHAIN_TAMPERED',
        message:
          'The audit log was tampered with: tile/0/000 lacks 1 of its 256 hashes, below the signed tree size ' +
          (await latest()).checkpoint.size +
          '. The chain alarm is raised',
      },
    });
    const alarms = (await call(app, 'GET', '/health')).body.chain.alarms.map(
      (alarm: { source: string }) => alarm.source,
    );
    expect(alarms).toEqual(expect.arrayContaining(['checkpoint', 'tiles']));
  });

  it('is for auditor and admin keys only unless LOG_PUBLIC=true', async () => {
    const { merchant_id: merchantId } = await onboardMerchant(app);
    const merchant = (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key;
    const auditor = (await issueKey(app, { role: 'auditor' })).key;
    for (const path of ['checkpoint', 'vkey', 'tile/0/000']) {
      expect((await getLog(app, path, null)).status).toBe(401);
      expect((await getLog(app, path, merchant)).status).toBe(403);
      expect((await getLog(app, path, auditor)).status).toBe(200);
    }
  });
});

describe('a public log', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ env: { CHECKPOINT_SIGNING_KEY: pem(), CHECKPOINT_INTERVAL: '10', LOG_PUBLIC: 'true' } });
    await appendEntries(app, 20);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('serves its checkpoint, vkey and tiles to anyone, tiles cacheable by shared caches', async () => {
    const vkey = (await getLog(app, 'vkey', null)).bytes.toString().trim();
    const note = await getLog(app, 'checkpoint', null);
    expect(note.status).toBe(200);
    const { size } = parseCheckpoint(openNote(note.bytes.toString(), [parseVerifierKey(vkey)]).text);
    const tile = await getLog(app, tilePath({ level: 0, index: 0, width: size }), null);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const entries = parseEntryBundle(
      (await getLog(app, tilePath({ level: 'entries', index: 0, width: size }), null)).bytes,
    );
    expect(tile.bytes).toEqual(Buffer.concat(entries.map(rfc9162.leafHash)));
  });
});
