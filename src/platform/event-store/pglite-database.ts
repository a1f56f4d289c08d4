import { mkdirSync } from 'node:fs';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import type { Database, Sql } from './sql';

/**
 * The embedded default: PostgreSQL compiled to WASM, in-process, one connection.
 * Type parsing is aligned with `pg` (bigint, numeric and timestamps as strings) so that the
 * SQL code above it sees the same values on both drivers.
 */
export class PgliteDatabase implements Database {
  readonly driver = 'pglite' as const;

  private constructor(private readonly db: PGlite) {}

  /**
   * `dataDir` undefined: in memory. `snapshot`: start from a dump of another instance's data
   * directory instead of running initdb, which takes seconds in WASM.
   */
  static async open(dataDir?: string, snapshot?: Blob): Promise<PgliteDatabase> {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir, { parsers: SAME_AS_PG, loadDataDir: snapshot });
    return new PgliteDatabase(db);
  }

  async query<R>(text: string, params?: unknown[]): Promise<R[]> {
    return (await this.db.query<R>(text, params)).rows;
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(txSql(tx)));
  }

  /** An uncompressed dump of the data directory, for `open(…, snapshot)`. */
  async snapshot(): Promise<Blob> {
    return this.db.dumpDataDir('none');
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

const asString = (value: string) => value;
const SAME_AS_PG = {
  [types.INT8]: asString,
  [types.NUMERIC]: asString,
  [types.TIMESTAMPTZ]: (value: string) => new Date(value),
};

function txSql(tx: Transaction): Sql {
  return { query: async <R>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)).rows };
}
