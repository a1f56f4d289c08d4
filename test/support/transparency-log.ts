import { EventStore } from '../../src/platform/event-store/event-store.port';
import { CHECKPOINT_EVENT_TYPE } from '@crcs/tlog';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { uniqueId } from './auth';
import { checkpointsWritten } from './audit';
import { TEST_ADMIN_KEY, type TestApp } from './test-app';

/**
 * `count` entries appended through the service's own store (as every write appends them, with
 * their writer authenticator), in concurrent appends as a busy till would: a log of hundreds of
 * entries in a second, where as many sales over HTTP would take the suite far longer.
 */
export async function appendEntries(app: TestApp, count: number): Promise<void> {
  const store = app.app.get(EventStore);
  const stream = uniqueId('tlog-test');
  const one = (i: number) =>
    store.append(`${stream}-${i}`, [{ type: 'TlogTestEntry', data: { i }, metadata: { schemaVersion: 1 } }], {
      expectedRevision: 0,
    });
  for (let i = 0; i < count; i += 50)
    await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => one(i + j)));
  await checkpointsWritten(app);
}

/** The tree sizes of every signed checkpoint in the log, in order. */
export async function publishedSizes(app: TestApp): Promise<number[]> {
  const rows = await app.app
    .get<Database>(DATABASE)
    .query<{ size: string }>(
      "select data->>'tree_size' as size from events where event_type = $1 and data->>'tree_size' is not null order by position",
      [CHECKPOINT_EVENT_TYPE],
    );
  return rows.map((row) => Number(row.size));
}

/** A GET below /log as bytes (tiles are binary: the JSON-minded `call` would mangle them); `key` null: without one. */
export async function getLog(
  app: TestApp,
  path: string,
  key: string | null = TEST_ADMIN_KEY,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${app.baseUrl}/log/${path}`, { headers: key === null ? {} : { 'x-api-key': key } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}
