import type { StoredEvent } from '../event-store/event-store.port';
import type { Sql } from '../event-store/sql';

/**
 * A read model built from the log. `reset` (re)creates its tables empty. `apply` gets a batch of the
 * events it handles, in position order: a group commit's appends, or a replay's page of the log. It
 * writes them with set-based statements (multi-row inserts, counters summed per row), so the work
 * done under the chain-head lock does not grow with the batch. It must be idempotent (upsert by id,
 * position guards) so that a replay of a batch already applied changes nothing.
 * Bump `version` when the tables or the logic change: the next start rebuilds it from the log.
 */
export interface Projector {
  readonly name: string;
  readonly version: number;
  /** inline: runs inside the append transaction (read-your-writes); async: from its checkpoint. */
  readonly mode: 'inline' | 'async';
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
