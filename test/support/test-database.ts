import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import { PgliteDatabase } from '../../src/platform/event-store/pglite-database';
import type { Database } from '../../src/platform/event-store/sql';

export type Driver = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export const DRIVERS: Driver[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase {
  /** A postgres:// URL of the test's own database; undefined for PGlite (in memory). */
  url?: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * A database of the test's own: an in-memory PGlite, or a fresh PostgreSQL database created on the
 * DATABASE_URL server and dropped afterwards, so parallel and earlier runs never see each other's rows.
 */
export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const opened: Database[] = [];
    return {
      open: async () => {
        if (opened.length > 0) throw new Error('an in-memory PGlite database has a single connection');
        const db = await PgliteDatabase.open(undefined, pgliteSnapshot());
        opened.push(db);
        return db;
      },
      drop: async () => {
        for (const db of opened) await db.close();
      },
    };
  }
  const serverUrl = process.env.DATABASE_URL!;
  const name = `crcs_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened: Database[] = [];
  return {
    url: url.toString(),
    open: async () => {
      const db = new PgDatabase(url.toString());
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

/** The freshly initialized data directory that the global setup dumped. */
export function pgliteSnapshot(): Blob {
  return new Blob([readFileSync(process.env.CRCS_PGLITE_SNAPSHOT!)]);
}
