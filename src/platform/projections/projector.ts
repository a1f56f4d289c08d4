import type { StoredEvent } from '../event-store/event-store.port';
import type { Sql } from '../event-store/sql';

/**
 * A read model built from the log, after the append, from its checkpoint (runner.ts). `reset`
 * (re)creates its tables empty. `apply` gets a batch of the events it handles, in position order: a
 * page of the log after its checkpoint. It writes them with set-based statements (multi-row
 * inserts, counters summed per row), so the work of a batch does not grow with it. It must be idempotent (upsert by id,
 * position guards) so that a replay of a batch already applied changes nothing.
 * Bump `version` when the tables or the logic change: the next start rebuilds it from the log.
 */
export interface Projector {
  readonly name: string;
  readonly version: number;
  readonly handles: readonly string[];
  /**
   * The read models whose rows `apply` reads: it never runs ahead of them. With them in the same run
   * (listed before it), each batch reaches it after them, in one transaction; alone, it stops at the
   * least of their checkpoints.
   */
  readonly reads?: readonly string[];
  reset(tx: Sql): Promise<void>;
  apply(events: readonly StoredEvent[], tx: Sql): Promise<void>;
}
