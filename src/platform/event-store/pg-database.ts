import { Pool, type PoolClient, type QueryConfig } from 'pg';
import { DatabaseUnavailableError, OutcomeUnknownError } from './event-store.errors';
import { NotificationListener, type NotificationSubscriber } from './notification-listener';
import { preparedName, type Database, type Sql } from './sql';

/** A request waits at most this long for a connection: an outage answers 503 fast instead of hanging. */
const CONNECT_TIMEOUT_MS = 2000;
/** Socket errors, and SQLSTATE classes 08 (connection exception) and 57P01-03 (server shutting down or starting). */
const CONNECTION_ERROR_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN|08\w{3}|57P0[123])$/;
const CONNECTION_ERROR_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed/;

function isConnectionFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (typeof code === 'string' && CONNECTION_ERROR_CODES.test(code)) ||
    (typeof message === 'string' && CONNECTION_ERROR_MESSAGES.test(message))
  );
}

/** A lost connection becomes a DatabaseUnavailableError (503); any other error passes through as it is. */
function unavailableIfDisconnected(error: unknown): never {
  throw isConnectionFailure(error) ? new DatabaseUnavailableError() : error;
}

export interface PgDatabaseOptions {
  /** What /health names: `embedded` for the server the service runs itself. */
  driver?: Database['driver'];
  /** Runs once the pool has ended: the embedded server stops after the service's last connection. */
  afterClose?: () => Promise<void>;
  /** Connections in the pool; 10 unless set. */
  poolSize?: number;
}

export class PgDatabase implements Database {
  readonly driver: Database['driver'];
  private readonly pool: Pool;
  private readonly listeners: NotificationListener[] = [];
  private closing?: Promise<void>;

  constructor(
    readonly url: string,
    private readonly options: PgDatabaseOptions = {},
  ) {
    this.driver = options.driver ?? 'postgres';
    this.pool = new Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    // A backend terminated just as it finished connecting can send its FATAL in the same packet as
    // ReadyForQuery: the pool has handed the client out (no idle listener) before transaction() has
    // attached its own, so the 'error' event would be unhandled and end the process. The client is
    // then not queryable, and its next query fails as a connection failure (503).
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async query<R>(text: string, params?: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query(statement(text, params))).rows as R[];
    } catch (error) {
      return unavailableIfDisconnected(error);
    }
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch(unavailableIfDisconnected);
    let broken = false;
    let committing = false;
    // The pool listens only to idle clients: a connection lost between two statements of a
    // transaction would otherwise be an unhandled 'error' event and end the process.
    const onError = () => (broken = true);
    client.on('error', onError);
    try {
      await client.query('begin');
      const result = await fn(clientSql(client));
      committing = true;
      await client.query('commit');
      return result;
    } catch (error) {
      // The caller may have wrapped the driver's error (the event store's BatchFailed) before it got here.
      broken ||= isConnectionFailure(error) || isConnectionFailure((error as { cause?: unknown }).cause);
      // Lost before COMMIT was sent, the server rolls back; lost after, nobody here knows whether it committed.
      if (broken) throw committing ? new OutcomeUnknownError() : new DatabaseUnavailableError();
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', onError);
      // A client whose connection broke is destroyed rather than handed to the next request.
      client.release(broken);
    }
  }

  listen(applicationName: string, channels: readonly string[], subscriber: NotificationSubscriber): void {
    const listener = new NotificationListener(this.url, applicationName, channels, subscriber);
    this.listeners.push(listener);
    listener.start();
  }

  /**
   * Once: a second call (the shutdown hook after a caller closed it) waits for the first. The
   * listeners end first: the embedded server stops only after the service's last connection.
   */
  close(): Promise<void> {
    this.closing ??= Promise.all(this.listeners.map((listener) => listener.close()))
      .then(() => this.pool.end())
      .then(() => this.options.afterClose?.());
    return this.closing;
  }
}

function clientSql(client: PoolClient): Sql {
  return {
    query: async <R>(text: string, params?: unknown[]) => (await client.query(statement(text, params))).rows as R[],
  };
}

function statement(text: string, values?: unknown[]): QueryConfig {
  return { name: preparedName(text), text, values };
}
