import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  NoteError,
  TILE_HEIGHT,
  TILE_WIDTH,
  checkpointText,
  cosign,
  cosignerKey,
  entryBundle,
  formatTlogProof,
  inclusionPath,
  leafHash,
  nodeHash,
  openNote,
  parseTilePath,
  parseVerifierKey,
  signNote,
  treeRoot,
  verifierKey,
} from '../src';
import { buildGoChecker, goSuite, type GoChecker } from './go-checker';

/*
 * The package's own formats, with no service: a log of chain hashes held in memory, its checkpoints
 * signed as notes, its tiles served as a static log serves them, its proofs and cosignatures, each
 * checked by Go's sumdb/note and sumdb/tlog (go-checker.ts); and a note Go signs, opened here.
 */

const ORIGIN = 'auditor.example/package-interop';
const SIZE = 700;

/** The log: SIZE chain hashes (the leaves' inputs), and every full subtree's root by level and index. */
const entries = Array.from({ length: SIZE }, (_, i) => createHash('sha256').update(`entry ${i}`).digest());
const nodes = new Map<string, Buffer>();
function node(level: number, index: number): Buffer {
  const key = `${level}/${index}`;
  let hash = nodes.get(key);
  if (!hash) {
    hash =
      level === 0
        ? leafHash(entries[index].toString('hex'))
        : nodeHash(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
    nodes.set(key, hash);
  }
  return hash;
}

goSuite("the package's C2SP formats, checked by Go's sumdb/note and sumdb/tlog", () => {
  const key = generateKeyPairSync('ed25519').privateKey;
  const vkey = verifierKey(ORIGIN, createPublicKey(key));
  const checkpoint = (size: number) =>
    signNote(checkpointText({ origin: ORIGIN, size, root: treeRoot(size, node) }), ORIGIN, key);
  let work: string;
  let go: GoChecker;
  let server: Server;
  let prefix: string;
  /** When set, the byte at this offset of every level-0 hash tile is flipped: a log that lies about its tree. */
  let flip: number | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'crcs-go-'));
    go = buildGoChecker(work);
    server = createServer((request, response) => {
      const path = request.url!.replace(/^\/log\//, '');
      if (path === 'checkpoint') return response.end(checkpoint(SIZE));
      const tile = parseTilePath(path.replace(/^tile\//, ''));
      const first = tile.index * TILE_WIDTH;
      const body =
        tile.level === 'entries'
          ? entryBundle(entries.slice(first, first + tile.width))
          : Buffer.concat(
              Array.from({ length: tile.width }, (_, i) => node((tile.level as number) * TILE_HEIGHT, first + i)),
            );
      if (tile.level === 0 && flip !== undefined) body[flip] ^= 1;
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    prefix = `http://127.0.0.1:${(server.address() as AddressInfo).port}/log`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('verifies the checkpoint note, proves every entry from the tiles, and older checkpoints consistent with it', async () => {
    const older: string[] = [];
    for (const size of [1, 100, 256, 513]) {
      older.push(join(work, `checkpoint-${size}`));
      await writeFile(older.at(-1)!, checkpoint(size));
    }
    const { status, stdout, stderr } = await go(['log', prefix, '', vkey, ...older]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(stdout)).toMatchObject({
      size: SIZE,
      root: treeRoot(SIZE, node).toString('base64'),
      entries_checked: SIZE,
      consistent_with: [1, 100, 256, 513],
    });
  });

  it('refuses the tiles of a log whose hashes do not make the signed root', async () => {
    flip = 40;
    try {
      const { status, stderr } = await go(['log', prefix, '', vkey]);
      expect(status).not.toBe(0);
      expect(stderr).toBe("the tiles do not give the checkpoint's root: downloaded inconsistent tile\n");
    } finally {
      flip = undefined;
    }
  });

  it('checks a tlog-proof of one entry, and refuses it for another entry', async () => {
    const index = 517;
    const file = join(work, 'entry.tlog-proof');
    await writeFile(
      file,
      formatTlogProof({ index, path: inclusionPath(index, SIZE, node), checkpoint: checkpoint(SIZE) }),
    );
    const checked = await go(['proof', file, vkey, entries[index].toString('hex')]);
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(checked.stdout)).toEqual({ index, size: SIZE, root: treeRoot(SIZE, node).toString('base64') });
    const other = await go(['proof', file, vkey, entries[index + 1].toString('hex')]);
    expect(other.status).not.toBe(0);
  });

  it("adds a witness's cosignature that Go's note.Open accepts for that witness, and none for another key", async () => {
    const witness = generateKeyPairSync('ed25519').privateKey;
    const text = checkpointText({ origin: ORIGIN, size: SIZE, root: treeRoot(SIZE, node) });
    const cosigned = `${signNote(text, ORIGIN, key)}${cosign(text, 'witness.example/w1', witness, 1_764_000_000)}`;
    const opened = await go(['cosigned', vkey, cosignerKey('witness.example/w1', createPublicKey(witness))], cosigned);
    expect({ status: opened.status, stderr: opened.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(opened.stdout)).toEqual({ signers: [ORIGIN, 'witness.example/w1'], cosigned_at: 1_764_000_000 });
    const stranger = generateKeyPairSync('ed25519').publicKey;
    const refused = await go(['cosigned', vkey, cosignerKey('witness.example/w1', stranger)], cosigned);
    expect(refused.status).not.toBe(0);
  });

  it('opens a note Go signed, with the verifier key Go printed, and refuses it once its text changes', async () => {
    const signed = await go(['sign', 'go.example/signer'], 'a text Go signs\nover two lines\n');
    expect(signed.status).toBe(0);
    const { vkey: goKey, note } = JSON.parse(signed.stdout) as { vkey: string; note: string };
    expect(openNote(note, [parseVerifierKey(goKey)])).toEqual({
      text: 'a text Go signs\nover two lines\n',
      signers: ['go.example/signer'],
    });
    expect(() => openNote(note.replace('two', 'three'), [parseVerifierKey(goKey)])).toThrow(NoteError);
  });
});
