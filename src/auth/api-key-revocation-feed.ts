import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DATABASE, type Database } from '../platform/event-store/sql';
import type { Principal } from '../platform/identity/principal';
import type { AppendTx, BatchWriter } from '../platform/event-store/event-store.port';
import { ApiKeyCache } from './api-key-cache';

/**
 * Each key revoked is announced on this channel, its id the payload, by the transaction that
 * appends its revocation: PostgreSQL delivers it only if, and once, that transaction commits, so
 * every process's key cache drops a key no earlier than the log revokes it and no later than it
 * hears of it. The id, not the hash: any session may LISTEN.
 */
const API_KEY_REVOKED_CHANNEL = 'api_key_revoked';

/** One statement part for a batch's revocations: a NOTIFY each, sent only if the batch's entries are written. */
const announcements: BatchWriter<string> = {
  statement(keyIds, params, when) {
    params.push(API_KEY_REVOKED_CHANNEL, keyIds);
    return `select count(pg_notify($${params.length - 1}, u.id))::int as announced
      from unnest($${params.length}::text[]) as u(id) where ${when}`;
  },
  check: () => undefined,
};

/**
 * Inside the append transaction of a key's revocation: every process hears of it once it commits,
 * from the append itself, whether or not the read model has applied it yet.
 */
export function announceRevocation(tx: AppendTx, keyId: string): void {
  tx.writeLater(announcements, keyId);
}

/**
 * How long a cached key is trusted without hearing of it: the bound on a revocation missed while
 * the listening connection was down but not yet known to be, and the longest a revocation waits
 * for a process that does not confirm it.
 */
const KEY_CACHE_TTL_MS = 5000;

/** Each process's confirmation, `<listening backend pid> <key id>`, once its cache has dropped a revoked key. */
const REVOCATION_HEARD_CHANNEL = 'api_key_revocation_heard';

/** Its application_name, followed by the process id, so that an operator (or a test) can tell the processes' listeners apart. */
export const LISTENER_NAME_PREFIX = 'crcs-key-revocations:';

/**
 * Keeps this process's key cache true to the keys the log holds through PostgreSQL LISTEN/NOTIFY, and lets
 * a revocation wait until every process has dropped the key.
 *
 * NOTIFY alone leaves a window: the revoking transaction has committed, and its answer may reach a
 * client that sends the key to another process before that process has read the notification. So
 * the revocation answers only once every listening connection in pg_stat_activity has confirmed,
 * or after KEY_CACHE_TTL_MS, by when every entry cached before the commit has expired anyway.
 */
@Injectable()
export class ApiKeyRevocationFeed implements OnModuleInit {
  readonly cache = new ApiKeyCache<Principal>(KEY_CACHE_TTL_MS, () => performance.now());
  private backendPid?: number;
  /** Key id → the callbacks of the revocations in this process waiting for confirmations. */
  private readonly waiting = new Map<string, Set<(backendPid: number) => void>>();

  constructor(@Inject(DATABASE) private readonly db: Database) {}

  onModuleInit(): void {
    this.db.listen(`${LISTENER_NAME_PREFIX}${process.pid}`, [API_KEY_REVOKED_CHANNEL, REVOCATION_HEARD_CHANNEL], {
      listening: (backendPid) => {
        this.backendPid = backendPid;
        this.cache.listenerUp();
      },
      lost: () => {
        this.backendPid = undefined;
        this.cache.listenerDown();
      },
      notified: (channel, payload) =>
        channel === API_KEY_REVOKED_CHANNEL ? this.revoked(payload) : this.heard(payload),
    });
  }

  /**
   * Runs `revoke` (true when it committed a revocation), then waits until every process listening
   * has confirmed it, at most KEY_CACHE_TTL_MS.
   */
  async revokeEverywhere(keyId: string, revoke: () => Promise<boolean>): Promise<void> {
    // Registered before the commit: a fast process may confirm before pg_stat_activity is read.
    const confirmed = new Set<number>();
    let check = (): void => undefined;
    const onConfirmed = (backendPid: number) => {
      confirmed.add(backendPid);
      check();
    };
    const callbacks = this.waiting.get(keyId) ?? new Set();
    this.waiting.set(keyId, callbacks.add(onConfirmed));
    try {
      if (!(await revoke())) return;
      // Unknown when the database cannot say: then only the bound is sure.
      const listening = await this.listeningBackends().catch(() => undefined);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, KEY_CACHE_TTL_MS);
        check = () => {
          if (listening?.every((pid) => confirmed.has(pid))) done();
        };
        check();
      });
    } finally {
      callbacks.delete(onConfirmed);
      if (callbacks.size === 0) this.waiting.delete(keyId);
    }
  }

  /** Every service process's listener on this database, this one's included. */
  private async listeningBackends(): Promise<number[]> {
    const rows = await this.db.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and starts_with(application_name, $1)',
      [LISTENER_NAME_PREFIX],
    );
    return rows.map((row) => row.pid);
  }

  private revoked(keyId: string): void {
    this.cache.revoked(keyId);
    if (this.backendPid === undefined) return;
    // Through the pool: a confirmation lost in an outage only makes the revocation wait its bound.
    void this.db
      .query('select pg_notify($1, $2)', [REVOCATION_HEARD_CHANNEL, `${this.backendPid} ${keyId}`])
      .catch(() => undefined);
  }

  private heard(payload: string): void {
    const space = payload.indexOf(' ');
    const callbacks = this.waiting.get(payload.slice(space + 1));
    for (const callback of callbacks ?? []) callback(Number(payload.slice(0, space)));
  }
}
