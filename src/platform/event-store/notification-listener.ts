import { Client, type QueryResult } from 'pg';

/** What a feature hears from `Database.listen`. */
export interface NotificationSubscriber {
  /**
   * LISTEN is in effect (again) on a connection whose server process is `backendPid`, as
   * pg_stat_activity shows it: every notification committed from now on will arrive.
   */
  listening(backendPid: number): void;
  /** The connection is gone: notifications committed since may never arrive, until `listening` again. */
  lost(): void;
  notified(channel: string, payload: string): void;
}

/** As the pool's: a server that never answers is a loss to retry, not a listener that never starts. */
const CONNECT_TIMEOUT_MS = 2000;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5000;

/**
 * One connection of its own, outside the pool: a pooled connection is handed to other work between
 * queries and would lose its LISTEN when the pool recycles it. Reconnects after any loss, waiting
 * longer each time up to MAX_RETRY_MS, so a database outage is not hammered.
 */
export class NotificationListener {
  private client?: Client;
  private retry?: NodeJS.Timeout;
  private retryMs = FIRST_RETRY_MS;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly applicationName: string,
    private readonly channels: readonly string[],
    private readonly subscriber: NotificationSubscriber,
  ) {}

  start(): void {
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    // An idle listener behind a dead network path sends nothing, so without TCP keepalive it would
    // never learn it is deaf; with it, in minutes (a subscriber must bound the meantime itself).
    const client = new Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.client = client;
    let gone = false;
    const onGone = () => {
      if (gone) return;
      gone = true;
      if (this.client === client) this.client = undefined;
      // A client that errored may still hold its socket.
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.subscriber.lost();
      this.retry = setTimeout(() => void this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    };
    client.on('error', onGone);
    client.on('end', onGone);
    client.on('notification', ({ channel, payload }) => this.subscriber.notified(channel, payload ?? ''));
    try {
      await client.connect();
      // One round trip, and the name only once LISTEN is in effect: whoever finds this connection by
      // its name in pg_stat_activity may count on it hearing what commits from then on.
      const statements = [
        ...this.channels.map((channel) => `LISTEN ${client.escapeIdentifier(channel)}`),
        `select pg_backend_pid() as pid, set_config('application_name', ${client.escapeLiteral(this.applicationName)}, false)`,
      ];
      const results = (await client.query(statements.join('; '))) as unknown as QueryResult<{ pid: number }>[];
      const { pid } = results[results.length - 1].rows[0];
      if (gone || this.closed) return;
      this.retryMs = FIRST_RETRY_MS;
      this.subscriber.listening(pid);
    } catch {
      onGone();
    }
  }
}
