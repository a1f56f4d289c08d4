import { createHash } from 'node:crypto';

// The package as built, as the service and the tools run it.
const { GENESIS_HASH, canonicalJson, entryBytes } = require('..') as typeof import('../src');

/** The data of a recorded cash sale, shaped as TransactionRecorded's (about 1.6 kB of canonical JSON per entry). */
function saleData(i: number, createdAt: string): Record<string, unknown> {
  const subtotal = 1000 + (i % 997);
  return {
    transaction_id: `TXN-2026-11-21-${i.toString(36).toUpperCase().padStart(8, '0')}`,
    transaction_type: 'SALE',
    merchant_id: `m-${i % 50}`,
    environment: 'production',
    created_at: createdAt,
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

export interface ChainEntry {
  fields: {
    position: number;
    entryId: string;
    streamId: string;
    streamRevision: number;
    type: string;
    recordedAt: string;
    prevHash: string;
  };
  dataJson: string;
  metadataJson: string;
  /** The bytes the chain hash is taken over (canonical JSON of the entry). */
  bytes: string;
  hash: string;
}

/**
 * Cash-sale entries chained on from `head`, one stream per sale as in the service, a chunk per
 * call; entry `p` is recorded at `firstAt` + p seconds.
 */
export function saleEntries(
  head = { position: 0, hash: GENESIS_HASH },
  firstAt = Date.UTC(2026, 10, 21),
): (size: number) => ChainEntry[] {
  return (size) => {
    const chunk: ChainEntry[] = [];
    for (let k = 0; k < size; k++) {
      const position = head.position + 1;
      const recordedAt = new Date(firstAt + position * 1000).toISOString();
      const fields = {
        position,
        entryId: `00000000-0000-4000-8000-${position.toString(16).padStart(12, '0')}`,
        streamId: `transaction-${position}`,
        streamRevision: 1,
        type: 'TransactionRecorded',
        recordedAt,
        prevHash: head.hash,
      };
      const metadata = {
        schemaVersion: 1,
        correlationId: `req-${position}`,
        causationId: `req-${position}`,
        actor: { keyId: 'key_0123456789', role: 'merchant' },
        merchantId: `m-${position % 50}`,
      };
      const dataJson = canonicalJson(saleData(position, recordedAt));
      const metadataJson = canonicalJson(metadata);
      const bytes = entryBytes(fields, dataJson, metadataJson);
      const hash = createHash('sha256').update(bytes).digest('hex');
      chunk.push({ fields, dataJson, metadataJson, bytes, hash });
      head = { position, hash };
    }
    return chunk;
  };
}

/** What `chainWithFloor` measured: the floor's seconds, the entries' bytes, and a checksum of the hashes. */
export interface Floor {
  seconds: number;
  bytes: number;
  /** Printed by the benches, so that no hashing can be optimized away. */
  checksum: number;
}

/**
 * `count` cash-sale entries, handed to `take` a chunk of 1,000 at a time (untimed), and the floor any
 * verifier is measured against: one core running SHA-256 over each entry's hashed bytes, prebuilt.
 */
export async function chainWithFloor(count: number, take: (chunk: ChainEntry[]) => Promise<void>): Promise<Floor> {
  const nextChunk = saleEntries();
  const floor: Floor = { seconds: 0, bytes: 0, checksum: 0 };
  for (let done = 0; done < count; done += 1000) {
    const chunk = nextChunk(Math.min(1000, count - done));
    await take(chunk);
    const buffers = chunk.map((e) => Buffer.from(e.bytes));
    floor.bytes += buffers.reduce((sum, b) => sum + b.length, 0);
    const start = process.hrtime.bigint();
    for (const b of buffers) floor.checksum += createHash('sha256').update(b).digest()[0];
    floor.seconds += Number(process.hrtime.bigint() - start) / 1e9;
  }
  return floor;
}
