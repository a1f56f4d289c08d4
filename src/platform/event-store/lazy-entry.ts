import type { VerifiableEntry } from './chain-verifier';
import type { StoredEvent } from './event-store.port';

type Objects = Pick<StoredEvent, 'data' | 'metadata'>;
type Fields = Omit<VerifiableEntry, 'data' | 'metadata'>;

/**
 * An entry whose data and metadata stay JSON text until read: a verifier reads them only for a
 * checkpoint or a break. `json` is either the two texts, as the log stores them, or one object
 * holding both, as an export line does. A class, not an object with getters per entry: a million
 * of them are made per verification.
 */
export class LazyEntry implements VerifiableEntry {
  readonly position: number;
  readonly entryId: string;
  readonly streamId: string;
  readonly streamRevision: number;
  readonly type: string;
  readonly recordedAt: string;
  readonly prevHash: string;
  readonly hash: string;
  entryHash?: string;
  private parsed: Objects | undefined;

  constructor(
    fields: Fields,
    private readonly json: { data: string; metadata: string } | string,
  ) {
    this.position = fields.position;
    this.entryId = fields.entryId;
    this.streamId = fields.streamId;
    this.streamRevision = fields.streamRevision;
    this.type = fields.type;
    this.recordedAt = fields.recordedAt;
    this.prevHash = fields.prevHash;
    this.hash = fields.hash;
    this.entryHash = fields.entryHash;
  }

  get data(): StoredEvent['data'] {
    return this.objects().data;
  }

  get metadata(): StoredEvent['metadata'] {
    return this.objects().metadata;
  }

  private objects(): Objects {
    const { json } = this;
    this.parsed ??= typeof json === 'string' ? (JSON.parse(json) as Objects) : { data: JSON.parse(json.data), metadata: JSON.parse(json.metadata) };
    return this.parsed;
  }
}
