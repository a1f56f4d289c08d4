/*
 * c2sp.org/tlog-tiles: the tree as tiles of 256 hashes, and the entries as bundles of 256.
 * Tile `n` at level `l` holds the tree's nodes at height 8 * l (each the root of 256^l leaves) from
 * index n * 256; a partial tile holds the first `width` of them. Pure: the offline verifier uses it.
 */

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;
const MAX_LEVEL = 63;

/** A hash tile (`level` a number) or an entry bundle (`level` 'entries'); `width` 1 to 256, 256 for a full one. */
export interface TileRef {
  level: number | 'entries';
  index: number;
  width: number;
}

/** `x001/x234/067`: 3-digit groups, all but the last prefixed with `x`. */
function indexPath(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** The tile's path below the log's prefix: `tile/<L>/<N>[.p/<W>]` or `tile/entries/<N>[.p/<W>]`. */
export const tilePath = ({ level, index, width }: TileRef): string =>
  `tile/${level}/${indexPath(index)}${width < TILE_WIDTH ? `.p/${width}` : ''}`;

/** Parses what follows `tile/`; throws saying what is wrong. */
export function parseTilePath(path: string): TileRef {
  const match = /^(entries|0|[1-9]\d?)\/((?:x\d{3}\/)*\d{3})(?:\.p\/([1-9]\d{0,2}))?$/.exec(path);
  if (!match)
    throw new Error(
      'a tile path is tile/<level>/<index>[.p/<width>] or tile/entries/<index>[.p/<width>], the index in 3-digit groups (x001/x234/067)',
    );
  const level = match[1] === 'entries' ? 'entries' : Number(match[1]);
  if (level !== 'entries' && level > MAX_LEVEL) throw new Error(`the level is at most ${MAX_LEVEL}`);
  const groups = match[2].split('/');
  if (groups.length > 1 && groups[0] === 'x000') throw new Error('the index has a leading zero group');
  const index = Number(groups.map((group) => group.replace('x', '')).join(''));
  if (!Number.isSafeInteger(index)) throw new Error('the index is too large');
  const width = match[3] === undefined ? TILE_WIDTH : Number(match[3]);
  if (match[3] !== undefined && width >= TILE_WIDTH) throw new Error(`a partial tile is 1 to ${TILE_WIDTH - 1} wide`);
  return { level, index, width };
}

/** Whether a tree of `size` leaves contains the tile: its last hash covers leaves before `size` only. */
export function tileWithin({ level, index, width }: TileRef, size: number): boolean {
  const span = BigInt(TILE_WIDTH) ** BigInt(level === 'entries' ? 0 : level);
  return (BigInt(index) * BigInt(TILE_WIDTH) + BigInt(width)) * span <= BigInt(size);
}

/** An entry bundle: each entry as a big-endian uint16 length, then its bytes. */
export function entryBundle(entries: readonly Buffer[]): Buffer {
  return Buffer.concat(entries.flatMap((entry) => [Buffer.of(entry.length >> 8, entry.length & 0xff), entry]));
}

/** The entries of a bundle; throws when it is cut short. */
export function parseEntryBundle(bundle: Buffer): Buffer[] {
  const entries: Buffer[] = [];
  for (let at = 0; at < bundle.length;) {
    if (at + 2 > bundle.length) throw new Error('the entry bundle ends inside a length');
    const length = bundle.readUInt16BE(at);
    if (at + 2 + length > bundle.length) throw new Error('the entry bundle ends inside an entry');
    entries.push(bundle.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
