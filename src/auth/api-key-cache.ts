/** What `put` needs from the moment a look-up began. */
export interface LookupTicket {
  readonly generation: number;
  readonly startedAt: number;
}

interface Entry<V> {
  value: V;
  keyId: string;
  expiresAt: number;
}

/**
 * Keys found by the directory (api-key-directory.ts), by key hash, so that a request with a known key costs no round trip.
 * Only found keys are kept: an unknown key is a miss every time, so a key issued elsewhere works on
 * its first request and guessed keys cannot fill the cache. An entry is trusted only while revocations
 * are heard (between `listenerUp` and `listenerDown`); the TTL bounds how long a revocation that was never heard can go unseen.
 *
 * Every event that may make a read stale bumps the generation: a look-up that began before it
 * read a snapshot that may predate a revocation heard since, so its result is used once and not kept.
 */
export class ApiKeyCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;
  private trusted = false;

  constructor(
    private readonly ttlMs: number,
    /** Monotonic milliseconds: a wall clock set back would stretch the TTL. */
    private readonly now: () => number,
  ) {}

  get(keyHash: string): V | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (this.now() < entry.expiresAt) return entry.value;
    this.entries.delete(keyHash);
    return undefined;
  }

  ticket(): LookupTicket {
    return { generation: this.generation, startedAt: this.now() };
  }

  /** The TTL runs from the ticket: the row was read at some point after it, never before. */
  put(ticket: LookupTicket, keyHash: string, keyId: string, value: V): void {
    if (!this.trusted || ticket.generation !== this.generation) return;
    this.entries.set(keyHash, { value, keyId, expiresAt: ticket.startedAt + this.ttlMs });
  }

  revoked(keyId: string): void {
    this.generation += 1;
    for (const [keyHash, entry] of this.entries) if (entry.keyId === keyId) this.entries.delete(keyHash);
  }

  /** Revocations are heard from now on; none committed before is known to have been heard. */
  listenerUp(): void {
    this.generation += 1;
    this.trusted = true;
  }

  /** Revocations may go unheard from now on: nothing kept can be trusted, nothing new is kept. */
  listenerDown(): void {
    this.generation += 1;
    this.trusted = false;
    this.entries.clear();
  }
}
