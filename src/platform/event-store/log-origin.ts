import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from './sql';

/** A start whose LOG_ORIGIN is not the log's: main.ts prints the message alone and exits 1. */
export class LogOriginMismatchError extends Error {}

/**
 * The log's name (c2sp.org/tlog-checkpoint "origin"), fixed at the first start and kept with the
 * log in its database: a checkpoint names the log it belongs to, and a witness or monitor tracks
 * a log by it, so a log that changed its name would look like a new log that forgot its history.
 */
export class LogOrigin {
  private constructor(readonly name: string) {}

  /**
   * The stored origin; at the first start, `wanted` (LOG_ORIGIN) or `<hostname>/crcs/<random id>`
   * is stored. Two processes starting at once store one: the other reads it. Checked when the
   * database is opened (a refusal closes it again), and read again for the provider.
   */
  static async fix(db: Database, wanted: string | undefined): Promise<LogOrigin> {
    await db.query('insert into log_origin (origin) values ($1) on conflict (id) do nothing', [
      wanted ?? defaultOrigin(),
    ]);
    const [{ origin }] = await db.query<{ origin: string }>('select origin from log_origin');
    if (wanted !== undefined && wanted !== origin) {
      throw new LogOriginMismatchError(
        `LOG_ORIGIN is ${JSON.stringify(wanted)}, but this log's origin is ${JSON.stringify(origin)}, fixed at its first start: ` +
          'a log keeps its name for good (its checkpoints, verifier key and witnesses name it). Unset LOG_ORIGIN or set it to the stored origin',
      );
    }
    return new LogOrigin(origin);
  }
}

/** A host name is a schema-less URL's start, as the spec recommends; the random part keeps two logs on one machine apart. */
function defaultOrigin(): string {
  const host =
    hostname()
      .toLowerCase()
      .replace(/[^a-z0-9.-]/g, '-') || 'localhost';
  return `${host}/crcs/${randomBytes(6).toString('hex')}`;
}
