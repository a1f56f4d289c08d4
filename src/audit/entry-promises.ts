import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import { LogOrigin } from '../platform/event-store/log-origin';
import type { StoredEvent } from '../platform/event-store/event-store.port';
import { signPromise, type EntryPromise, writerKey, writerMac } from '@crcs/tlog';

/**
 * Signs the promise of an entry a write just appended, with the log's checkpoint key, in the
 * append transaction where the answer is built: the answer, and its Idempotency-Key replay, carry
 * it. One Ed25519 signature per write, no read and no statement more. Null when no key is configured.
 */
@Injectable()
export class EntryPromises {
  private readonly writerKey: Buffer | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly origin: LogOrigin,
  ) {
    this.writerKey = config.checkpointSigningKey && writerKey(config.checkpointSigningKey);
  }

  of(entry: Pick<StoredEvent, 'position' | 'hash' | 'recordedAt'>): EntryPromise | null {
    const key = this.config.checkpointSigningKey;
    return key ? signPromise(key, this.origin.name, entry) : null;
  }

  /**
   * The promise of a stored entry, read back later (a receipt's): the same bytes as the write's
   * answer carried (Ed25519 is deterministic), but only for an entry a service process wrote, as
   * its writer authenticator shows. `false`: its authenticator does not verify, so no service
   * process wrote it as it is. Null for an entry written before writer authentication.
   */
  ofStored(
    entry: Pick<StoredEvent, 'position' | 'hash' | 'recordedAt'> & { writerMac: string | null },
  ): EntryPromise | null | false {
    if (!this.writerKey || entry.writerMac === null) return null;
    return entry.writerMac === writerMac(this.writerKey, entry.hash) && this.of(entry);
  }
}
