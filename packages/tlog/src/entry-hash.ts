import { sha256Hex } from './sha256';
import type { LogEntry } from './log-entry';

export const GENESIS_HASH = '0'.repeat(64);

export type HashedFields = Omit<LogEntry, 'hash'>;

/**
 * SHA-256 over the RFC 8785 canonical JSON of the entry, keyed as docs/design.md names the fields.
 * Callers pass values exactly as they read back from storage (JSON round-tripped, ISO time),
 * so that the writer and any verifier hash the same bytes.
 */
export function entryHash(e: HashedFields): string {
  return sha256Hex(canonicalEntry(e));
}

/** The hash the entry would have at another position: how a verifier tells where a moved entry belongs. */
export function entryHashAt(e: HashedFields, position: number): string {
  return sha256Hex(entryBytes({ ...e, position }, canonicalJson(e.data), canonicalJson(e.metadata)));
}

/** The bytes `entryHash` hashes: `entryBytes` with the two objects written canonically. */
export function canonicalEntry(e: HashedFields): string {
  return entryBytes(e, canonicalJson(e.data), canonicalJson(e.metadata));
}

/**
 * The canonical entry around the canonical JSON texts of its data and metadata, as the log stores
 * them: so a verifier hashes the very bytes hashed at append time without parsing or re-writing
 * them. The nine fields are written in their sorted order: no object to build and sort per entry.
 */
export function entryBytes(e: Omit<HashedFields, 'data' | 'metadata'>, dataJson: string, metadataJson: string): string {
  return (
    `{"data":${dataJson},"entry_id":${canonicalJson(e.entryId)},"event_type":${canonicalJson(e.type)},` +
    `"metadata":${metadataJson},"position":${canonicalJson(e.position)},"prev_hash":${canonicalJson(e.prevHash)},` +
    `"recorded_at":${canonicalJson(e.recordedAt)},"stream_id":${canonicalJson(e.streamId)},"stream_revision":${canonicalJson(e.streamRevision)}}`
  );
}

/** A string JSON.stringify would escape: control characters, quote, backslash, lone surrogates. */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON.stringify escapes
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * RFC 8785 canonical JSON of a JSON value (as JSON.parse returns them): keys sorted by UTF-16 code
 * units, numbers and escapes as ECMAScript writes them. The same bytes as the `canonicalize`
 * package (a property test holds them equal) in about half the time: it runs for every entry of
 * every verification, so it builds the string directly and quotes plain strings without
 * JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`${value} is not a JSON number`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
        return `${out}]`;
      }
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).sort();
      let out = '';
      for (const key of keys) {
        if (object[key] === undefined) continue;
        out += `${out === '' ? '{' : ','}${canonicalJson(key)}:${canonicalJson(object[key])}`;
      }
      return out === '' ? '{}' : `${out}}`;
    }
    default:
      throw new Error(`a ${typeof value} is not a JSON value`);
  }
}
