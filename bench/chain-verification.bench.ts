/**
 * Verification of a 1,000,000-entry chain, beside its floor: single-core SHA-256 over the very
 * bytes hashed at append time (the canonical JSON of each entry), in the same run.
 *
 * - The endpoint's path: the entries are written to a PostgreSQL database of their own (untimed),
 *   then `verifyStoredLog` (what `GET /admin/verify-hash-chain` runs, from the built service)
 *   reads and verifies them.
 * - The offline verifier: the same entries as an export file, checked by the built CLI
 *   (`dist/scripts/verify-chain.js`) in a process of its own, start-up included.
 *
 * Entries are built a chunk at a time, with one stream per sale as in the service.
 * Run: npm run bench (builds first); alone, after `npm run build`:
 * node -r ts-node/register/transpile-only bench/chain-verification.bench.ts [entries, default 1000000]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createTestDatabase } from '../test/support/test-database';
import { replaceSection } from './support/report';

// The built modules, as the service and the CLI run them (their hashing threads are built JavaScript too).
const { exportLine } = require('../dist/src/platform/verification/export-lines') as typeof import('../src/platform/verification/export-lines');
const { GENESIS_HASH, canonicalJson, entryBytes } = require('../dist/src/platform/event-store/entry-hash') as typeof import('../src/platform/event-store/entry-hash');
const { migrate } = require('../dist/src/platform/event-store/migrations') as typeof import('../src/platform/event-store/migrations');
const { verifyStoredLog } = require('../dist/src/platform/verification/stored-verification') as typeof import('../src/platform/verification/stored-verification');

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
const CHUNK = 1000;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

/** The data of a recorded cash sale, shaped as TransactionRecorded's (about 1.6 kB of canonical JSON per entry). */
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

interface Entry {
  fields: { position: number; entryId: string; streamId: string; streamRevision: number; type: string; recordedAt: string; prevHash: string };
  dataJson: string;
  metadataJson: string;
  bytes: string;
  hash: string;
}

let head = { position: 0, hash: GENESIS_HASH };
function nextChunk(size: number): Entry[] {
  const chunk: Entry[] = [];
  for (let k = 0; k < size; k++) {
    const position = head.position + 1;
    const fields = {
      position,
      entryId: `00000000-0000-4000-8000-${position.toString(16).padStart(12, '0')}`,
      streamId: `transaction-${position}`,
      streamRevision: 1,
      type: 'TransactionRecorded',
      recordedAt: new Date(Date.UTC(2026, 10, 21) + position * 1000).toISOString(),
      prevHash: head.hash,
    };
    const metadata = { schemaVersion: 1, correlationId: `req-${position}`, causationId: `req-${position}`, actor: { keyId: 'key_0123456789', role: 'merchant' }, merchantId: `m-${position % 50}` };
    const dataJson = canonicalJson(saleData(position));
    const metadataJson = canonicalJson(metadata);
    const bytes = entryBytes(fields, dataJson, metadataJson);
    const hash = createHash('sha256').update(bytes).digest('hex');
    chunk.push({ fields, dataJson, metadataJson, bytes, hash });
    head = { position, hash };
  }
  return chunk;
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'crcs-chain-bench-'));
  const database = await createTestDatabase('postgres');
  const db = await database.open();
  try {
    await migrate(db);
    // The bench's own database: a gigabyte and a half of rows need not go through the write-ahead log.
    await db.query('alter table events set unlogged');
    const file = join(dir, 'export.ndjson');
    const out = createWriteStream(file);
    let floor = 0;
    let bytes = 0;
    let sink = 0; // consumed below so that no hashing can be optimized away
    for (let done = 0; done < ENTRIES; done += CHUNK) {
      const chunk = nextChunk(Math.min(CHUNK, ENTRIES - done));
      const params: unknown[] = [];
      const tuples = chunk.map((e, i) => {
        const f = e.fields;
        params.push(f.position, f.entryId, f.streamId, f.streamRevision, f.type, e.dataJson, e.metadataJson, f.recordedAt, f.prevHash, e.hash);
        return `(${Array.from({ length: 10 }, (_, k) => `$${i * 10 + k + 1}`).join(', ')})`;
      });
      await db.query(
        `insert into events (position, entry_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, hash) values ${tuples.join(', ')}`,
        params,
      );
      if (!out.write(chunk.map((e) => exportLine(e.bytes, e.hash)).join(''))) await once(out, 'drain');
      const buffers = chunk.map((e) => Buffer.from(e.bytes));
      bytes += buffers.reduce((sum, b) => sum + b.length, 0);
      const start = process.hrtime.bigint();
      for (const b of buffers) sink += createHash('sha256').update(b).digest()[0];
      floor += seconds(start);
    }
    out.end();
    await once(out, 'finish');
    await db.query('vacuum analyze events');

    const rssBefore = process.memoryUsage().rss;
    let endpointPeak = rssBefore;
    const sampler = setInterval(() => (endpointPeak = Math.max(endpointPeak, process.memoryUsage().rss)), 100);
    const endpointStart = process.hrtime.bigint();
    const verified = await verifyStoredLog(db, 1, ENTRIES);
    const endpoint = seconds(endpointStart);
    clearInterval(sampler);
    if (verified.verified_count !== ENTRIES) throw new Error('the stored chain did not verify');

    const cliStart = process.hrtime.bigint();
    // GNU time's last line on stderr: the CLI's peak resident memory, in kB.
    const cli = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, 'dist/scripts/verify-chain.js', file], {
      cwd: join(__dirname, '..'),
      maxBuffer: 1 << 24,
      encoding: 'utf8',
    });
    const offline = seconds(cliStart);
    if (cli.status !== 0 || JSON.parse(cli.stdout).verified_count !== ENTRIES) throw new Error(`the export did not verify: ${cli.stderr}`);
    const cliPeakMb = Number(cli.stderr.trim().split('\n').pop()) / 1024;

    const fmt = (s: number) => `${s.toFixed(2)} s`;
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
    const ratio = (s: number) => `${(s / floor).toFixed(2)}×`;
    const report = [
      `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}, ` +
        `${ENTRIES.toLocaleString('en-US')} entries of ${(bytes / ENTRIES).toFixed(0)} bytes (checksum ${sink % 10}):`,
      '',
      '| what | time | / floor | memory |',
      '|---|---|---|---|',
      `| SHA-256 alone over the entries' bytes, one core (the floor) | ${fmt(floor)} | 1.00× | |`,
      `| endpoint: \`verifyStoredLog\` over PostgreSQL | ${fmt(endpoint)} | ${ratio(endpoint)} | RSS grew ${mb(endpointPeak - rssBefore)} |`,
      `| offline: \`verify-chain\` on the export (${(bytes / 2 ** 20).toFixed(0)} MB), its start-up included | ${fmt(offline)} | ${ratio(offline)} | peak RSS ${cliPeakMb.toFixed(0)} MB |`,
    ].join('\n');
    console.log(report);
    if (ENTRIES === 1_000_000) await replaceSection('chain-verification', report);
  } finally {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
