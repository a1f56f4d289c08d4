import { isUtf8 } from 'node:buffer';
import { hash as hashHex } from 'node:crypto';
import { sha256Hex } from './sha256';
import { entryOf, type EventRow } from './log-entry';
import { canonicalEntry, entryHash } from './entry-hash';
import type { LogEntry } from './log-entry';
import { ENTRY_REFERENCES, SALE_ENTRY_TYPE } from './rule-references';

/**
 * One line of the NDJSON export (`GET /admin/audit-logs/export`): an entry with exactly the fields
 * its hash covers, named as docs/design.md names them (the columns of `events`), plus the hash. What the
 * offline verifier reads.
 */
export type ExportedEntry = Omit<EventRow, 'position' | 'recorded_at'> & { position: number; recorded_at: string };

/**
 * The line is the entry's canonical JSON, the very bytes its hash covers, with `hash` added after
 * it, then the entry's writer authenticator when it has one (`writer_mac`, which vouches for the
 * hash and is not covered by it): a verifier hashes the line up to `hash` instead of re-writing the entry.
 */
export function exportLine(bytes: string, hash: string, writerMac?: string | null): string {
  const mac = writerMac ? `,"writer_mac":${JSON.stringify(writerMac)}` : '';
  return `${bytes.slice(0, -1)},"hash":${JSON.stringify(hash)}${mac}}\n`;
}

export const toExportLine = (e: LogEntry & { writerMac?: string | null }): string =>
  exportLine(canonicalEntry(e), e.hash, e.writerMac);

/** `,"hash":"<64 hex digits>"}` */
const HASH_MEMBER_LENGTH = 75;

/** The bytes a line's hash covers if it was written by `exportLine` (any other JSON layout gets a rebuild). */
function hashedBytes(line: string): string {
  return `${line.slice(0, line.length - HASH_MEMBER_LENGTH)}}`;
}

/** An export line's fields but its objects, and the hash of the entry it holds at its stored position. */
export type CheckedLine = Omit<LogEntry, 'data' | 'metadata'> & {
  entryHash: string;
  writerMac?: string;
  /** A sale's members that name entries, cut from its data (`entryReferences`): the verifier then parses none of it. */
  references?: string;
};

/** `,"writer_mac":"<64 hex digits>"` before the closing brace, as `exportLine` writes it. */
const WRITER_MAC_KEY = Buffer.from(',"writer_mac":"');
const WRITER_MAC_MEMBER_LENGTH = WRITER_MAC_KEY.length + 65;
/** Any other string value of a last `writer_mac` member: read, so that a verifier reports it as not verifying. */
const WRITER_MAC_TEXT = /,"writer_mac":"([^"\\]*)"}$/;

/**
 * `checkExportLine` over a line's UTF-8 bytes, without building its objects when it can: a line
 * as `exportLine` writes it whose bytes hash to its own hash has its fields cut from their known
 * places, once the syntax of its data and metadata is checked. Anything else (another layout, an
 * escape in a field, a hash that does not match, bytes that are not UTF-8) is decoded and read in
 * full, so both give one answer, errors included.
 */
export function checkExportLineBytes(line: Buffer): CheckedLine {
  const at = line.length - 1 - WRITER_MAC_MEMBER_LENGTH;
  if (
    at <= 0 ||
    !startsWith(line, WRITER_MAC_KEY, at) ||
    line[line.length - 2] !== QUOTE ||
    line[line.length - 1] !== CLOSE_OBJECT
  ) {
    return (isUtf8(line) && fastCheck(line)) || checkExportLine(line.toString());
  }
  // The entry and its hash without the authenticator: a copy, closed, for the same checks as a line without one.
  const entry = Buffer.concat([line.subarray(0, at), CLOSING]);
  const checked = (isUtf8(entry) && fastCheck(entry)) || checkExportLine(entry.toString());
  return { ...checked, writerMac: line.toString('latin1', at + WRITER_MAC_KEY.length, line.length - 2) };
}

const CLOSING = Buffer.from('}');

const HEAD = Buffer.from('{"data":');
const KEYS = [
  ',"entry_id":',
  ',"event_type":',
  ',"metadata":',
  ',"position":',
  ',"prev_hash":',
  ',"recorded_at":',
  ',"stream_id":',
  ',"stream_revision":',
  ',"hash":',
].map((key) => Buffer.from(key));

function fastCheck(b: Buffer): CheckedLine | undefined {
  const tail = b.length - HASH_MEMBER_LENGTH;
  if (
    tail <= HEAD.length ||
    !startsWith(b, HEAD, 0) ||
    !startsWith(b, KEYS[8], tail) ||
    b[tail + 8] !== QUOTE ||
    b[b.length - 2] !== QUOTE ||
    b[b.length - 1] !== CLOSE_OBJECT
  )
    return undefined;
  // Not checked for hex digits: only a hash equal to the line's own, which is hex, is taken.
  const hash = b.toString('latin1', tail + 9, b.length - 2);
  // Hashed as written: the line up to its hash member, closed (in place for a moment: no copy per line).
  b[tail] = CLOSE_OBJECT;
  const own = hashHex('sha256', b.subarray(0, tail + 1), 'hex');
  b[tail] = COMMA;
  if (own !== hash) return undefined;
  const members: number[] = [];
  let at = skipValue(b, HEAD.length, true, members);
  const dataEnd = at;
  const entryId = at > 0 && startsWith(b, KEYS[0], at) ? plainString(b, (at += KEYS[0].length)) : undefined;
  if (entryId === undefined) return undefined;
  at = endOfString;
  const type = startsWith(b, KEYS[1], at) ? plainString(b, (at += KEYS[1].length)) : undefined;
  if (type === undefined || !startsWith(b, KEYS[2], endOfString)) return undefined;
  at = skipValue(b, endOfString + KEYS[2].length, true);
  const position = at > 0 && startsWith(b, KEYS[3], at) ? integer(b, at + KEYS[3].length) : undefined;
  if (position === undefined) return undefined;
  const prevHash = startsWith(b, KEYS[4], endOfInteger) ? plainString(b, endOfInteger + KEYS[4].length) : undefined;
  const recordedAt =
    prevHash !== undefined && startsWith(b, KEYS[5], endOfString)
      ? plainString(b, endOfString + KEYS[5].length)
      : undefined;
  const streamId =
    recordedAt !== undefined && startsWith(b, KEYS[6], endOfString)
      ? plainString(b, endOfString + KEYS[6].length)
      : undefined;
  const streamRevision =
    streamId !== undefined && startsWith(b, KEYS[7], endOfString)
      ? integer(b, endOfString + KEYS[7].length)
      : undefined;
  if (streamRevision === undefined || endOfInteger !== tail) return undefined;
  return {
    position,
    entryId,
    streamId: streamId!,
    streamRevision,
    type,
    recordedAt: recordedAt!,
    prevHash: prevHash!,
    hash,
    entryHash: own,
    ...(type === SALE_ENTRY_TYPE && { references: namedEntries(b, members, dataEnd) }),
  };
}

/**
 * The members of a sale's data that name entries (ENTRY_REFERENCES), as the JSON text of an object
 * holding only them, cut from the data's UTF-8 bytes: what a verifier reads of a sale, without
 * building the rest of its data (most of a verification's time when it did). Undefined when the
 * bytes are not a JSON object or one of its keys has an escape: the verifier then parses the data.
 */
export function entryReferences(data: Buffer): string | undefined {
  const members: number[] = [];
  const end = skipValue(data, 0, true, members);
  return end === data.length ? namedEntries(data, members, end) : undefined;
}

/** `entryReferences` of the data an export line starts with, however the rest of the line reads. */
function lineReferences(line: Buffer): string | undefined {
  const members: number[] = [];
  const end = startsWith(line, HEAD, 0) ? skipValue(line, HEAD.length, true, members) : -1;
  return end > 0 ? namedEntries(line, members, end) : undefined;
}

/** Each as it starts a member: its key in quotes and the colon, as the canonical layout writes it. */
const REFERENCE_KEYS = ENTRY_REFERENCES.map(({ field }) => Buffer.from(`"${field}":`));
/** A key shorter than this cannot name a reference, escaped or not. */
const SHORTEST_REFERENCE_KEY = Math.min(...REFERENCE_KEYS.map((key) => key.length));

/**
 * `entryReferences` of the object ending before `end` whose members start at `members` (key, value,
 * as `skipValue` records them): duplicates kept in order, so that JSON.parse takes the last, as it
 * does of the whole data.
 */
function namedEntries(b: Buffer, members: number[], end: number): string | undefined {
  let named = '';
  for (let k = 0; k < members.length; k += 2) {
    const key = members[k];
    const value = members[k + 1];
    if (value - key < SHORTEST_REFERENCE_KEY) continue;
    for (let i = key; i < value; i++) if (b[i] === BACKSLASH) return undefined;
    for (const name of REFERENCE_KEYS) {
      if (name.length !== value - key || !startsWith(b, name, key)) continue;
      const valueEnd = k + 2 < members.length ? members[k + 2] - 1 : end - 1;
      named += `${named === '' ? '' : ','}${b.toString('utf8', key, valueEnd)}`;
    }
  }
  return `{${named}}`;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

function startsWith(b: Buffer, prefix: Buffer, at: number): boolean {
  if (at + prefix.length > b.length) return false;
  for (let i = 0; i < prefix.length; i++) if (b[at + i] !== prefix[i]) return false;
  return true;
}

/** Where the last string or integer read ended: module state, so that reading one allocates nothing. */
let endOfString = 0;
let endOfInteger = 0;

/** A string with no escape at `at`, decoded; undefined for anything else (then the line is read in full). */
function plainString(b: Buffer, at: number): string | undefined {
  if (b[at] !== QUOTE) return undefined;
  for (let i = at + 1; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) {
      endOfString = i + 1;
      return b.toString('utf8', at + 1, i);
    }
    if (c < 0x20 || c === BACKSLASH) return undefined;
  }
  return undefined;
}

/** A safe integer as `String(n)` writes it; undefined for any other number (JSON.parse then decides). */
function integer(b: Buffer, at: number): number | undefined {
  let i = at;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  const first = i;
  let value = 0;
  while (i < b.length && b[i] >= 0x30 && b[i] <= 0x39 && i - first < 15) value = value * 10 + b[i++] - 0x30;
  if (
    i === first ||
    (b[first] === 0x30 && i > first + 1) ||
    (b[i] >= 0x30 && b[i] <= 0x39) ||
    b[i] === 0x2e ||
    b[i] === 0x65 ||
    b[i] === 0x45
  )
    return undefined;
  endOfInteger = i;
  return negative ? -value : value;
}

/**
 * The end of the JSON value at `at` (an object, if `object`), or -1 if it is not one in the
 * canonical layout (no whitespace). Only its syntax is checked, as JSON.parse would, so that a
 * line whose hash vouches for its bytes is still refused when they are not JSON. `members`: where
 * each member of the outer object starts, its key then its value, two numbers a member.
 */
function skipValue(b: Buffer, at: number, object: boolean, members?: number[]): number {
  if (object && b[at] !== OPEN_OBJECT) return -1;
  const open: number[] = [];
  let i = at;
  for (;;) {
    // A value at i.
    const c = b[i];
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      if (b[i + 1] === close) i += 2;
      else {
        open.push(close);
        i += 1;
        if (close === CLOSE_OBJECT) {
          const key = i;
          i = skipKey(b, i);
          if (i < 0) return -1;
          if (open.length === 1) members?.push(key, i);
        }
        continue;
      }
    } else if (c === QUOTE) i = skipString(b, i);
    else if (c === 0x74) i = literal(b, i, TRUE);
    else if (c === 0x66) i = literal(b, i, FALSE);
    else if (c === 0x6e) i = literal(b, i, NULL);
    else i = skipNumber(b, i);
    if (i < 0) return -1;
    // After a value: the members or elements left in the containers it closes.
    for (;;) {
      if (open.length === 0) return i;
      const close = open[open.length - 1];
      if (b[i] === COMMA) {
        i += 1;
        if (close === CLOSE_OBJECT) {
          const key = i;
          i = skipKey(b, i);
          if (i < 0) return -1;
          if (open.length === 1) members?.push(key, i);
        }
        break;
      }
      if (b[i] !== close) return -1;
      open.pop();
      i += 1;
    }
  }
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

const literal = (b: Buffer, at: number, word: Buffer): number => (startsWith(b, word, at) ? at + word.length : -1);

function skipKey(b: Buffer, at: number): number {
  const i = skipString(b, at);
  return i > 0 && b[i] === COLON ? i + 1 : -1;
}

const ESCAPED = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** The bytes a string holds as they are: all but controls, the quote and the backslash. */
const PLAIN = new Uint8Array(256).map((_, c) => (c >= 0x20 && c !== QUOTE && c !== BACKSLASH ? 1 : 0));

function skipString(b: Buffer, at: number): number {
  if (b[at] !== QUOTE) return -1;
  for (let i = at + 1; i < b.length;) {
    // Most of a line: one table look-up a byte.
    while (PLAIN[b[i]] === 1) i++;
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c !== BACKSLASH) i += 1;
    else if (ESCAPED.has(b[i + 1])) i += 2;
    else if (b[i + 1] === 0x75 && isHex(b[i + 2]) && isHex(b[i + 3]) && isHex(b[i + 4]) && isHex(b[i + 5])) i += 6;
    else return -1;
  }
  return -1;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` */
function skipNumber(b: Buffer, at: number): number {
  let i = at;
  if (b[i] === 0x2d) i++;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else return -1;
  if (b[i] === 0x2e) {
    if (!isDigit(b[++i])) return -1;
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  return i;
}

/**
 * Reads a line (throwing as `fromExportLine` does) and hashes the entry: the line's own bytes when
 * they hash to the stored hash, else the entry's canonical JSON rebuilt (an older layout, or an
 * edited line, whose break the verifier then reports).
 */
export function checkExportLine(text: string): CheckedLine {
  const mac = WRITER_MAC_TEXT.exec(text);
  const line = mac ? `${text.slice(0, mac.index)}}` : text;
  const { data, metadata, ...fields } = fromExportLine(line);
  const own = sha256Hex(hashedBytes(line));
  return {
    ...fields,
    entryHash: own === fields.hash ? own : entryHash({ ...fields, data, metadata }),
    ...(mac && { writerMac: mac[1] }),
    // Cut from the bytes as the fast path cuts them: one answer, whichever path read the line.
    ...(fields.type === SALE_ENTRY_TYPE && { references: lineReferences(Buffer.from(line)) }),
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** What each field of a line must hold, in the order they are checked. */
const FIELD_CHECKS: Record<keyof ExportedEntry, (v: unknown) => boolean> = {
  position: Number.isSafeInteger,
  entry_id: isString,
  stream_id: isString,
  stream_revision: Number.isSafeInteger,
  event_type: isString,
  data: isObject,
  metadata: isObject,
  recorded_at: isString,
  prev_hash: isString,
  hash: isString,
};

/** Throws a message naming the first field that is missing or of the wrong type. */
export function fromExportLine(line: string): LogEntry {
  const value: unknown = JSON.parse(line);
  if (!isObject(value)) throw new Error('not a JSON object');
  for (const [name, ok] of Object.entries(FIELD_CHECKS)) {
    if (!ok(value[name])) throw new Error(`field ${name} is missing or of the wrong type`);
  }
  const entry = value as unknown as ExportedEntry & { writer_mac?: unknown };
  const writerMac = typeof entry.writer_mac === 'string' ? { writerMac: entry.writer_mac } : {};
  return { ...entryOf(entry, entry.recorded_at), ...writerMac };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
