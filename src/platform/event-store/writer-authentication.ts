import { Logger } from '@nestjs/common';
import { EVENT_SCHEMA_VERSION } from '../identity/command-context';
import { RevisionConflictError } from './event-store.errors';
import type { EventStore } from './event-store.port';
import type { Sql } from './sql';
import {
  WRITER_AUTHENTICATION_EVENT_TYPE,
  WRITER_AUTHENTICATION_SCHEME,
  WRITER_AUTHENTICATION_STREAM,
} from '@crcs/tlog';

/** The position of the authentication boundary (writer-mac.ts) when the log has one below `before`. */
export async function writersRequiredFrom(sql: Sql, before = Number.MAX_SAFE_INTEGER): Promise<number | undefined> {
  const [row] = await sql.query<{ position: string }>(
    'select position from events where event_type = $1 and position < $2 order by position limit 1',
    [WRITER_AUTHENTICATION_EVENT_TYPE, before],
  );
  return row && Number(row.position);
}

/**
 * Appends the authentication boundary to a log that has none: at a new log's first start, before
 * anything else, or at the first start with a signing key of a log made without one. Two processes
 * starting together append it once (the stream's first revision).
 */
export async function requireWriterAuthentication(store: EventStore, sql: Sql): Promise<void> {
  if ((await writersRequiredFrom(sql)) !== undefined) return;
  try {
    const [entry] = await store.append(
      WRITER_AUTHENTICATION_STREAM,
      [
        {
          type: WRITER_AUTHENTICATION_EVENT_TYPE,
          data: { scheme: WRITER_AUTHENTICATION_SCHEME },
          metadata: { schemaVersion: EVENT_SCHEMA_VERSION },
        },
      ],
      { expectedRevision: 0 },
    );
    new Logger('EventStore').log(`every entry from position ${entry.position} on must carry a writer authenticator`);
  } catch (error) {
    if (!(error instanceof RevisionConflictError)) throw error;
  }
}
