/**
 * Verification of a 1,000,000-entry chain, beside its floor: plain SHA-256 over the very bytes the
 * verifier hashes (the canonical JSON of each entry), on the same machine in the same run.
 * Entries are built a chunk at a time (untimed) so that the million never sit in memory at once;
 * one verifier sees them all, with one stream per sale as in the service.
 * Run: npx ts-node --transpile-only bench/chain-verification.bench.ts [entries, default 1000000]
 */
import { createHash } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { fromExportLine, toExportLine } from '../src/platform/event-store/chain-export';
import { ChainVerifier } from '../src/platform/event-store/chain-verifier';
import type { StoredEvent } from '../src/platform/event-store/event-store.port';
import { GENESIS_HASH, canonicalEntry, entryHash } from '../src/platform/event-store/hash-chain';

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
const CHUNK = 10_000;

/** The data of a recorded cash sale, shaped as TransactionRecorded's (about 1.5 kB of canonical JSON per entry). */
function saleData(i: number): Record<string, unknown> {
  const subtotal = 1000 + (i % 997);
  return {
    transaction_id: `TXN-2026-11-21-${i.toString(36).toUpperCase().padStart(8, '0')}`,
    transaction_type: 'SALE',
    merchant_id: `m-${i % 50}`,
    environment: 'production',
    created_at: new Date(Date.UTC(2026, 10, 21) + i * 1000).toISOString(),
    store_id: 'store-1',
    terminal_id: `t-${i % 7}`,
    cashier_id: `emp-${i % 31}`,
    payment_method: 'cash',
    is_split_tender: false,
    tenders: [],
    location: {
      requested: { zip_code: '85004', state: null, county: null, city: null },
      resolved: { zip_code: '85004', state: 'AZ', county: 'Maricopa', city: 'Phoenix', jurisdiction_id: 'US-AZ' },
    },
    rule: {
      lookup_key: 'AZ',
      jurisdiction_id: 'US-AZ',
      jurisdiction_level: 'state',
      rounding_mode: 'swedish_rounding',
      enforcement: 'mandatory',
      status: 'enacted',
      legislation: 'HB 2345 (2026)',
      effective_date: '2026-07-01',
      source: ['https://www.azleg.gov/'],
      notes: 'Cash transactions are rounded to the nearest five cents; electronic payments are exact.',
    },
    calculation: {
      subtotal_cents: subtotal,
      tax_total_cents: Math.round(subtotal * 0.086),
      ledger_total_cents: subtotal + Math.round(subtotal * 0.086),
      cash_portion_cents: subtotal + Math.round(subtotal * 0.086),
      cash_total_cents: Math.round((subtotal + Math.round(subtotal * 0.086)) / 5) * 5,
      rounding_delta_cents: 0,
      cash_rounding_mode: 'swedish_rounding',
      mode_source: 'rule',
      rounding_applied: true,
      exemptions: [],
    },
    compliance: { compliance_status: 'PASS', reasons: [] },
    fraud: { fraud_score: 0, risk_level: 'NONE', signals: [] },
  };
}

let head = { position: 0, hash: GENESIS_HASH };
function nextChunk(size: number): StoredEvent[] {
  const chunk: StoredEvent[] = [];
  for (let k = 0; k < size; k++) {
    const position = head.position + 1;
    const entry = {
      position,
      entryId: `00000000-0000-4000-8000-${position.toString(16).padStart(12, '0')}`,
      streamId: `transaction-${position}`,
      streamRevision: 1,
      type: 'TransactionRecorded',
      data: saleData(position),
      metadata: { schemaVersion: 1, correlationId: `req-${position}`, causationId: `req-${position}`, actor: { keyId: 'key_0123456789', role: 'merchant' }, merchantId: `m-${position % 50}` },
      recordedAt: new Date(Date.UTC(2026, 10, 21) + position * 1000).toISOString(),
      prevHash: head.hash,
    };
    const stored = { ...entry, hash: entryHash(entry) };
    chunk.push(stored);
    head = { position, hash: stored.hash };
  }
  return chunk;
}

const timed = (work: () => void): number => {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e9;
};

const verifier = new ChainVerifier();
const lineVerifier = new ChainVerifier();
const seconds = { verify: 0, verifyLines: 0, sha256: 0 };
let bytes = 0;
let sink = 0; // consumed below so that no hashing can be optimized away
for (let done = 0; done < ENTRIES; done += CHUNK) {
  const chunk = nextChunk(Math.min(CHUNK, ENTRIES - done));
  seconds.verify += timed(() => chunk.forEach((e) => verifier.push(e)));
  const lines = chunk.map(toExportLine);
  seconds.verifyLines += timed(() => lines.forEach((line) => lineVerifier.push(fromExportLine(line))));
  const canonical = chunk.map((e) => Buffer.from(canonicalEntry(e)));
  bytes += canonical.reduce((sum, b) => sum + b.length, 0);
  seconds.sha256 += timed(() => canonical.forEach((b) => (sink += createHash('sha256').update(b).digest()[0])));
}
const result = verifier.result();
const fromLines = lineVerifier.result();
if (result.verified_count !== ENTRIES || fromLines.verified_count !== ENTRIES) throw new Error('the generated chain did not verify');

const fmt = (s: number) => `${s.toFixed(2)} s`;
console.log(`node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${ENTRIES.toLocaleString('en-US')} entries, ${(bytes / ENTRIES).toFixed(0)} bytes of canonical JSON each`);
console.log(`ChainVerifier over StoredEvents (the endpoint, after the database read): ${fmt(seconds.verify)}`);
console.log(`ChainVerifier over NDJSON lines (the offline verifier, JSON.parse included): ${fmt(seconds.verifyLines)}`);
console.log(`SHA-256 alone over the same canonical bytes (the floor): ${fmt(seconds.sha256)}`);
console.log(`verification / floor: ${(seconds.verify / seconds.sha256).toFixed(1)}× (checksum ${sink})`);
