import { PROJECTORS } from '../src/projectors';
import { rebuildProjections } from '../src/platform/projections/runner';
import { loadConfig } from '../src/platform/config/config';
import { openDatabase } from '../src/platform/event-store/event-store.module';

/** `npm run projections:rebuild`: drops every read model and replays the whole log into it. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, projectors: PROJECTORS });
  try {
    const started = Date.now();
    await rebuildProjections(db, PROJECTORS);
    const [head] = await db.query<{ position: string }>('select position from event_store_head');
    console.log(
      `rebuilt ${PROJECTORS.length} read models from ${head.position} events in ${Date.now() - started} ms: ` +
        PROJECTORS.map((p) => p.name).join(', '),
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(`projections:rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
