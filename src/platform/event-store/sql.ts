/** The one SQL surface the service uses, implemented with `pg` (PgDatabase). */
export interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database extends Sql {
  /** Runs `fn` in one transaction: commit when it resolves, rollback when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Where another thread opens a connection of its own to the same database. */
  readonly url: string;
  /** `postgres`: the server of DATABASE_URL; `embedded`: the service's own server under DATA_DIR. */
  readonly driver: 'postgres' | 'embedded';
}

/** Injection token for the service's `Database`. */
export const DATABASE = Symbol('DATABASE');

/**
 * The tuples of a multi-row `values` list, `($1, $2), ($3, $4)`, their values pushed onto `params`:
 * a whole batch of rows in one statement, so its round trips do not grow with the batch.
 */
export function valuesList(rows: readonly (readonly unknown[])[], params: unknown[]): string {
  const placeholder = (value: unknown) => `$${params.push(value)}`;
  return rows.map((row) => `(${row.map(placeholder).join(', ')})`).join(', ');
}
