/**
 * The last revision of each stream, as a `Map<string, number>` would hold it, in a quarter of its
 * memory or less: the one part of a verification that grows with the log (a stream per sale). Stream
 * ids are `category-id`; the text up to the last `-` is shared by many streams (`transaction-TXN-2026-11-21-`,
 * one a day), so each is kept once, and the rest, up to 12 characters of one byte each, is packed
 * into three 32-bit words: a key is four words and its revision a fifth, in typed arrays, with no
 * object per stream. Ids of another shape and revisions beyond 32 bits go to a Map, so it answers
 * exactly as the Map did.
 */
export class StreamRevisions {
  private slots = new Int32Array(1 << 10);
  /** WORDS per record: the prefix's number times 16 plus the suffix's length, then the suffix's characters, four to a word. */
  private keys = new Int32Array(WORDS << 10);
  private revisions = new Int32Array(1 << 10);
  private count = 0;
  private readonly prefixes = new Map<string, number>();
  private readonly others = new Map<string, number>();
  /** The words of the key last looked up, and (or -1) its record. */
  private readonly key = new Int32Array(WORDS);
  private lastId: string | undefined;
  private lastRecord = -1;
  private lastPrefix = '';
  private lastPrefixNumber = -1;

  get(streamId: string): number | undefined {
    const record = this.find(streamId);
    if (record >= 0 && this.revisions[record] !== ABSENT) return this.revisions[record];
    return this.others.size === 0 ? undefined : this.others.get(streamId);
  }

  set(streamId: string, revision: number): void {
    let record = this.find(streamId);
    const packs = record !== NOT_PACKED && (revision | 0) === revision && revision !== ABSENT;
    if (packs && record < 0) record = this.insert(streamId);
    if (packs && record >= 0) {
      this.revisions[record] = revision;
      if (this.others.size > 0) this.others.delete(streamId);
      return;
    }
    if (record >= 0) this.revisions[record] = ABSENT;
    this.others.set(streamId, revision);
  }

  delete(streamId: string): void {
    const record = this.find(streamId);
    if (record >= 0) this.revisions[record] = ABSENT;
    this.others.delete(streamId);
  }

  /** The record of `streamId`, NOT_FOUND (its words then in `key`), or NOT_PACKED when it has no words. */
  private find(streamId: string): number {
    if (streamId === this.lastId) return this.lastRecord;
    this.lastId = streamId;
    this.lastRecord = this.pack(streamId) ? this.lookUp() : NOT_PACKED;
    return this.lastRecord;
  }

  private pack(streamId: string): boolean {
    const start = streamId.lastIndexOf('-') + 1;
    const length = streamId.length - start;
    if (length > SUFFIX_CHARS) return false;
    // Consecutive entries mostly share a prefix: it is compared, not sliced and hashed, for each.
    if (start !== this.lastPrefix.length || !streamId.startsWith(this.lastPrefix) || this.lastPrefixNumber < 0) {
      const prefix = streamId.slice(0, start);
      let number = this.prefixes.get(prefix);
      if (number === undefined) {
        // Ids whose prefixes are not shared (say, whole UUIDs but their last group) are left to the Map.
        if (this.prefixes.size >= Math.min(MAX_PREFIXES, SHARED_PREFIXES + this.count / 8)) return false;
        number = this.prefixes.size;
        this.prefixes.set(prefix, number);
      }
      this.lastPrefix = prefix;
      this.lastPrefixNumber = number;
    }
    const key = this.key;
    key[0] = this.lastPrefixNumber * 16 + length;
    key[1] = key[2] = key[3] = 0;
    for (let i = 0; i < length; i++) {
      const c = streamId.charCodeAt(start + i);
      if (c > 0xff) return false;
      key[1 + (i >> 2)] |= c << (8 * (i & 3));
    }
    return true;
  }

  /** Linear probing from the key's hash; a key that lands far from its place is left to the Map, so that ids made to collide cost no more than a Map's. */
  private lookUp(): number {
    const { key, keys, slots } = this;
    const mask = slots.length - 1;
    for (let slot = hash(key, 0) & mask, probes = 0; ; slot = (slot + 1) & mask, probes++) {
      const record = slots[slot] - 1;
      if (record < 0) {
        this.freeSlot = probes <= MAX_PROBES ? slot : -1;
        return NOT_FOUND;
      }
      const at = record * WORDS;
      if (keys[at] === key[0] && keys[at + 1] === key[1] && keys[at + 2] === key[2] && keys[at + 3] === key[3])
        return record;
    }
  }

  /** Where the last key looked up and not found would go, or -1. */
  private freeSlot = -1;

  /** A record for the key last looked up, or NOT_FOUND when it lands too far from its place. */
  private insert(streamId: string): number {
    if (this.freeSlot < 0) return NOT_FOUND;
    const record = this.count++;
    if (record === this.revisions.length) {
      const grown = Math.ceil(record * 1.5);
      this.revisions = copied(this.revisions, grown);
      this.keys = copied(this.keys, grown * WORDS);
    }
    this.keys.set(this.key, record * WORDS);
    this.slots[this.freeSlot] = record + 1;
    if (this.count * 4 > this.slots.length * 3) this.rehash();
    this.lastId = streamId;
    this.lastRecord = record;
    return record;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let record = 0; record < this.count; record++) {
      let slot = hash(this.keys, record * WORDS) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = record + 1;
    }
    this.slots = slots;
  }
}

const WORDS = 4;
const SUFFIX_CHARS = 12;
/** A prefix's number times 16 must fit in a word. */
const MAX_PREFIXES = 1 << 20;
/** Prefixes taken before their sharing is judged: about one per eight streams is. */
const SHARED_PREFIXES = 1024;
const MAX_PROBES = 32;
/** The revision of a record whose stream is not (or no longer) here: its revision went to the Map, or it was deleted. */
const ABSENT = -0x80000000;
const NOT_FOUND = -1;
const NOT_PACKED = -2;

/** Murmur3's 32-bit mixing of the four words at `at`. */
function hash(words: Int32Array, at: number): number {
  let h = 0;
  for (let i = at; i < at + WORDS; i++) {
    h = Math.imul(h ^ words[i], 0xcc9e2d51);
    h = Math.imul((h << 15) | (h >>> 17), 0x1b873593);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}

function copied(from: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const to = new Int32Array(length);
  to.set(from);
  return to;
}
