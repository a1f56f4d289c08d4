import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import type { Database } from '../../src/platform/event-store/sql';

export type Driver = 'embedded' | 'postgres';

/** The server a driver's test databases live on, as the global set-up left it: the run's embedded server or DATABASE_URL's. */
const serverUrl = (driver: Driver): string | undefined =>
  driver === 'postgres' ? process.env.DATABASE_URL : process.env.CRCS_EMBEDDED_URL;

/**
 * The drivers this run has a server for. The int tier runs on one server (DATABASE_URL's when set,
 * else the run's embedded one); the e2e tier starts the embedded server beside DATABASE_URL's, so its
 * suites run on both.
 */
export const DRIVERS: Driver[] = (['embedded', 'postgres'] as const).filter((driver) => serverUrl(driver));

/** The run's one server for what needs a database and names no driver: DATABASE_URL's when it is set. */
export const RUN_DRIVER: Driver = process.env.DATABASE_URL ? 'postgres' : 'embedded';

/** The migrated database the global set-up made on each server, which every test database is cloned from. */
export const TEMPLATE_ENV = 'CRCS_TEMPLATE_DB';

export interface TestDatabase {
  /** A postgres:// URL of the test's own database. */
  url: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * A database of the test's own on the server of `driver`, cloned from the run's migrated template
 * (a file copy, instead of a migration per test) unless `empty` (for a test of what runs the
 * migrations), and dropped afterwards, so parallel and earlier runs never see each other's rows.
 */
export async function createTestDatabase(
  driver: Driver = RUN_DRIVER,
  { empty = false }: { empty?: boolean } = {},
): Promise<TestDatabase> {
  const server = serverUrl(driver);
  // Only the int and e2e tiers' global set-up starts the servers.
  if (!server)
    throw new Error(
      `no ${driver} database server for this spec: a spec that opens a database belongs under test/, not beside the code`,
    );
  const name = `crcs_test_${randomBytes(6).toString('hex')}`;
  const template = empty ? undefined : process.env[TEMPLATE_ENV];
  await adminQuery(server, `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = withDatabase(server, name);
  const opened: Database[] = [];
  return {
    url,
    open: async () => {
      const db = new PgDatabase(url, { driver });
      opened.push(db);
      return db;
    },
    drop: async () => {
      for (const db of opened) await db.close();
      await adminQuery(server, `drop database if exists ${name} with (force)`);
    },
  };
}

export function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
