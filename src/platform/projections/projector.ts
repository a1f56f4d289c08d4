import type { StoredEvent } from '../event-store/event-store.port';
import type { Sql } from '../event-store/sql';

/**
 * A read model built from the log. `reset` (re)creates its tables empty; `apply` must be idempotent
 * (upsert by id) so that a replay after a crash between write and checkpoint changes nothing.
 * Bump `version` when the tables or the logic change: the next start rebuilds it from the log.
 */
export interface Projector {
  readonly name: string;
  readonly version: number;
  /** inline: runs inside the append transaction (read-your-writes); async: from its checkpoint. */
  readonly mode: 'inline' | 'async';
  readonly handles: readonly string[];
  reset(tx: Sql): Promise<void>;
  apply(event: StoredEvent, tx: Sql): Promise<void>;
}
