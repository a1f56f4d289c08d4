/** The one SQL surface the service uses; implemented by `pg` and by PGlite. */
export interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database extends Sql {
  /** Runs `fn` in one transaction: commit when it resolves, rollback when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly driver: 'postgres' | 'pglite';
}

/** Injection token for the service's `Database`. */
export const DATABASE = Symbol('DATABASE');
