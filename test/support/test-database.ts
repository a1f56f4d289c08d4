import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import type { Database } from '../../src/platform/event-store/sql';

export type Driver = 'embedded' | 'postgres';

/** The embedded server always; the DATABASE_URL server too when it is set (CI sets it). */
export const DRIVERS: Driver[] = process.env.DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

export interface TestDatabase {
  /** A postgres:// URL of the test's own database. */
  url: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * A database of the test's own, created fresh on the embedded server the global setup started or
 * on the DATABASE_URL server, and dropped afterwards, so parallel and earlier runs never see each
 * other's rows.
 */
export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  const serverUrl = driver === 'postgres' ? process.env.DATABASE_URL : process.env.CRCS_EMBEDDED_URL;
  // Only the integration project's global set-up starts the embedded server.
  if (!serverUrl)
    throw new Error(
      'no database server for this spec: a spec that opens a database belongs under test/, not beside the code',
    );
  const name = `crcs_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened: Database[] = [];
  return {
    url: url.toString(),
    open: async () => {
      const db = new PgDatabase(url.toString(), { driver });
      opened.push(db);
      return db;
    },
    drop: async () => {
      for (const db of opened) await db.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
