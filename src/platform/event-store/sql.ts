import type { NotificationSubscriber } from './notification-listener';

/** The one SQL surface the service uses, implemented with `pg` (PgDatabase). */
export interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database extends Sql {
  /** Runs `fn` in one transaction: commit when it resolves, rollback when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Keeps a connection of its own LISTENing on `channels` until close(), reconnecting after a
   * loss; `applicationName` is how pg_stat_activity names it.
   */
  listen(applicationName: string, channels: readonly string[], subscriber: NotificationSubscriber): void;
  close(): Promise<void>;
  /** Where another thread opens a connection of its own to the same database. */
  readonly url: string;
  /** `postgres`: the server of DATABASE_URL; `embedded`: the service's own server under DATA_DIR. */
  readonly driver: 'postgres' | 'embedded';
}

const PREPARED = new Map<string, string>();

/**
 * Marks a statement that runs on every sale or append. `PgDatabase` sends it under a name, so
 * each pooled connection has PostgreSQL parse it once and reuse its plan instead of parsing and
 * planning it on every call (PostgreSQL's statement log for `POST /transaction` put about half of
 * its time per statement there, docs/adr/0018-speed-against-a-peer-event-store.md). Only for constant texts: a named statement stays on every connection for its life.
 */
export function prepared(text: string): string {
  if (!PREPARED.has(text)) PREPARED.set(text, `crcs_${PREPARED.size + 1}`);
  return text;
}

/** The name `prepared` gave the text, if it did. */
export const preparedName = (text: string): string | undefined => PREPARED.get(text);

/** Injection token for the service's `Database`. */
export const DATABASE = Symbol('DATABASE');

/** A JSON text that goes into a row as it is, not as a string: the canonical texts the log stores. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * `insert into <table> (<columns>) select … from json_populate_recordset(…)`: a batch of rows, keyed
 * by column, as one JSON parameter pushed onto `params`, each value typed by the table's own column.
 * One statement whatever the number of rows, and its text does not change with that number, so it
 * can be `prepared`: PostgreSQL parses and plans it once per connection, not once per batch.
 */
export function insertRows(table: string, rows: readonly Record<string, unknown>[], params: unknown[]): string {
  const columns = Object.keys(rows[0]);
  params.push(
    `[${rows.map((row) => `{${columns.map((column) => `"${column}":${jsonCell(row[column])}`).join(',')}}`).join(',')}]`,
  );
  const list = columns.join(', ');
  return `insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, $${params.length})`;
}

const jsonCell = (value: unknown): string =>
  value instanceof JsonText ? value.text : value === undefined ? 'null' : JSON.stringify(value);

/**
 * A statement that has PostgreSQL compress the columns' large values (over about 2 kB, a sale's
 * entry is 5) with lz4 where the server was built with it, instead of its default pglz, which cost
 * three times the CPU per value; a server without lz4 (the embedded one) keeps pglz. Applies to
 * values written after it.
 */
export function lz4WhereSupported(table: string, columns: readonly string[]): string {
  const alter = columns.map((column) => `alter column ${column} set compression lz4`).join(', ');
  return `do $$ begin alter table ${table} ${alter}; exception when feature_not_supported then null; end $$`;
}
