import { HASH_BYTES, MerkleFrontier, leafHash } from './merkle-tree';
import { openNote, parseCheckpoint, type Checkpoint, type NoteVerifier } from './signed-note';
import { TILE_HEIGHT, TILE_WIDTH, parseEntryBundle, tilePath } from './tiles';

/** What a tiled log failed: the message says what, and where. */
export class TiledLogError extends Error {}

export interface TiledLogCheck {
  origin: string;
  tree_size: number;
  root_hash: string;
  /** Tiles and bundles read and checked. */
  tiles_checked: number;
  /** The sizes of the kept checkpoints the log was found to extend. */
  consistent_with: number[];
  /** With an export kept from before: its entries whose hash the log's entry bundles were found to hold. */
  export_entries_compared?: number;
}

/**
 * The chain hashes of an export kept from before, 32 bytes each, of the positions `first`,
 * `first + 1`, ...: the log must serve the same entries there (a tile's entry k is position k + 1).
 */
export interface ExportedHashes {
  first: number;
  hashes: Buffer;
}

/**
 * Verifies a whole log from what it serves in the C2SP formats, trusting nothing but the verifier
 * key and the checkpoints kept from before: the checkpoint note must verify, every entry bundle
 * must give the level-0 tile beside it, the entries must give the checkpoint's root and, at each
 * kept checkpoint's size, that checkpoint's root (so the log extends it: nothing rewritten, cut or
 * forked since), and every higher tile must hold the tree's nodes. One pass over the entries,
 * O(log n) memory besides the nodes of the higher tiles. `read`: a resource by its path below the
 * log's prefix (`checkpoint`, `tile/...`). `exported`: the entries must also be those of an export
 * kept from before, which ties each hash to its entry's content (the export itself verified first),
 * so that a history rewritten and re-signed with the log's own key is caught without a checkpoint kept.
 * `seen`: each entry bundle once checked, the tree index of its first entry and its entries' chain hashes.
 */
export async function verifyTiledLog(
  read: (path: string) => Promise<Buffer>,
  verifier: NoteVerifier,
  kept: readonly Checkpoint[],
  exported?: ExportedHashes,
  seen?: (start: number, entries: readonly Buffer[]) => void,
): Promise<TiledLogCheck> {
  let opened: { text: string };
  try {
    opened = openNote((await read('checkpoint')).toString('utf8'), [verifier]);
  } catch (error) {
    throw new TiledLogError(
      `the log's checkpoint does not verify with the key of ${verifier.name}: ${(error as Error).message}`,
    );
  }
  const checkpoint = parseCheckpoint(opened.text);
  if (checkpoint.origin !== verifier.name)
    throw new TiledLogError(`the checkpoint is of the log ${checkpoint.origin}, not of ${verifier.name}`);
  const older = [...kept].sort((a, b) => a.size - b.size);
  for (const old of older) {
    if (old.origin !== checkpoint.origin)
      throw new TiledLogError(`a kept checkpoint is of the log ${old.origin}, not of ${checkpoint.origin}`);
    if (old.size > checkpoint.size) {
      throw new TiledLogError(
        `the log's checkpoint (tree size ${checkpoint.size}) is behind one you kept (tree size ${old.size}): the log was rolled back or cut`,
      );
    }
  }
  let tiles = 0;
  let compared = 0;
  const frontier = MerkleFrontier.empty();
  /** The nodes the higher tiles hold, by tile level, as the frontier completes them. */
  const upper: Buffer[][] = [];
  const compare = async (level: number, index: number, expected: Buffer[]) => {
    const path = tilePath({ level, index, width: expected.length });
    tiles += 1;
    if (!(await read(path)).equals(Buffer.concat(expected)))
      throw new TiledLogError(`${path} does not hold the tree's hashes${level === 0 ? ' of its entries' : ''}`);
  };
  const checkKept = () => {
    while (older.length > 0 && older[0].size === frontier.size) {
      const old = older.shift()!;
      if (!frontier.root().equals(old.root)) {
        throw new TiledLogError(
          `the log does not extend the checkpoint of tree size ${old.size} you kept: its first ${old.size} entries give another root (history rewritten or forked)`,
        );
      }
    }
  };
  checkKept();
  for (let index = 0; index * TILE_WIDTH < checkpoint.size; index++) {
    const width = Math.min(TILE_WIDTH, checkpoint.size - index * TILE_WIDTH);
    const path = tilePath({ level: 'entries', index, width });
    const entries = parseEntryBundle(await read(path));
    tiles += 1;
    if (entries.length !== width) throw new TiledLogError(`${path} holds ${entries.length} entries, not ${width}`);
    if (exported) compared += compareExported(exported, index * TILE_WIDTH, entries);
    seen?.(index * TILE_WIDTH, entries);
    const leaves = entries.map((entry) => leafHash(entry.toString('hex')));
    for (const leaf of leaves) {
      for (const node of frontier.append(leaf)) {
        if (node.level > 0 && node.level % TILE_HEIGHT === 0)
          (upper[node.level / TILE_HEIGHT] ??= [])[node.index] = node.hash;
      }
      checkKept();
    }
    await compare(0, index, leaves);
  }
  const root = frontier.root();
  if (!root.equals(checkpoint.root))
    throw new TiledLogError(`the log's ${checkpoint.size} entries do not give the root of its checkpoint`);
  for (let level = 1; TILE_WIDTH ** level <= checkpoint.size; level++) {
    const count = Math.floor(checkpoint.size / TILE_WIDTH ** level);
    for (let index = 0; index * TILE_WIDTH < count; index++)
      await compare(level, index, upper[level].slice(index * TILE_WIDTH, Math.min(count, (index + 1) * TILE_WIDTH)));
  }
  return {
    origin: checkpoint.origin,
    tree_size: checkpoint.size,
    root_hash: root.toString('hex'),
    tiles_checked: tiles,
    consistent_with: kept.map((k) => k.size).sort((a, b) => a - b),
    ...(exported && { export_entries_compared: compared }),
  };
}

/** The bundle's entries (tree indexes `start`, `start + 1`, ...) that the export holds must be its hashes; how many it held. */
function compareExported({ first, hashes }: ExportedHashes, start: number, entries: Buffer[]): number {
  let compared = 0;
  entries.forEach((entry, k) => {
    const at = start + k + 1 - first;
    if (at < 0 || (at + 1) * HASH_BYTES > hashes.length) return;
    const kept = hashes.subarray(at * HASH_BYTES, (at + 1) * HASH_BYTES);
    if (!entry.equals(kept)) {
      throw new TiledLogError(
        `the entry at position ${start + k + 1} is ${entry.toString('hex')} in the log, ${kept.toString('hex')} in your export: the log serves another history than the one you kept`,
      );
    }
    compared += 1;
  });
  return compared;
}
