import { Pool, type PoolClient } from 'pg';
import type { Database, Sql } from './sql';

export class PgDatabase implements Database {
  readonly driver = 'postgres' as const;
  private readonly pool: Pool;

  constructor(connectionString: string, maxConnections = 10) {
    this.pool = new Pool({ connectionString, max: maxConnections });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async query<R>(text: string, params?: unknown[]): Promise<R[]> {
    return (await this.pool.query(text, params)).rows as R[];
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await fn(clientSql(client));
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function clientSql(client: PoolClient): Sql {
  return {
    query: async <R>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as R[],
  };
}
