import { createPublicKey } from 'node:crypto';
import { PROJECTORS } from '../src/projectors';
import { rebuildProjections } from '../src/platform/projections/runner';
import { loadConfig } from '../src/platform/config/config';
import { withEmbeddedSigningKey } from '../src/platform/config/embedded-signing-key';
import { openDatabase } from '../src/platform/event-store/event-store.module';
import { writerKey, keyRing } from '@crcs/tlog';
import type { Database } from '../src/platform/event-store/sql';
import { verifyStoredLog } from '../src/platform/verification/stored-verification';

/**
 * `npm run projections:rebuild`: verifies the log, then drops every read model and replays the whole
 * log into it. A log that does not verify is refused before any read model is touched: a rebuild
 * from it would launder an entry rewritten or forged by SQL into read models that agree with it.
 */
async function main(): Promise<void> {
  const config = withEmbeddedSigningKey(loadConfig());
  // No projectors at opening: a start would bring the read models up to the head of a log not verified yet.
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, projectors: [] });
  try {
    const started = Date.now();
    const head = await verifyLog(db, config.checkpointSigningKey);
    await rebuildProjections(db, PROJECTORS);
    console.log(
      `verified ${head} entries and rebuilt ${PROJECTORS.length} read models from them in ${Date.now() - started} ms: ` +
        PROJECTORS.map((p) => p.name).join(', '),
    );
  } finally {
    await db.close();
  }
}

/** The chain, the checkpoints' signatures and every entry's writer authenticator, as `GET /admin/verify-hash-chain` checks them; returns the head's position. */
async function verifyLog(db: Database, signingKey: ReturnType<typeof loadConfig>['checkpointSigningKey']) {
  const [{ position }] = await db.query<{ position: string }>('select position from event_store_head');
  const head = Number(position);
  if (head === 0) return head;
  const result = await verifyStoredLog(db, 1, head, {
    checkpointKeys: signingKey && keyRing([createPublicKey(signingKey)]),
    writerKey: signingKey && writerKey(signingKey),
  });
  const [first] = result.breaks;
  if (first)
    throw new LogDoesNotVerify(
      `the log does not verify: ${result.break_count} break(s), the first at position ${first.position} (${first.kind}): ` +
        `${first.detail}. No read model was touched: GET /admin/verify-hash-chain names every break`,
    );
  return head;
}

class LogDoesNotVerify extends Error {}

main().catch((error: unknown) => {
  const verb = error instanceof LogDoesNotVerify ? 'refused' : 'failed';
  console.error(`projections:rebuild ${verb}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
