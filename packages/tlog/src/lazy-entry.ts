import type { VerifiableEntry } from './chain-verifier';
import type { LogEntry } from './log-entry';

type Objects = Pick<LogEntry, 'data' | 'metadata'>;
type Fields = Omit<VerifiableEntry, 'data' | 'metadata'>;

/**
 * An entry's objects were read for a verification that was given only its fields: one that found
 * a break, which the caller then runs again with every entry's texts.
 */
export class ObjectsNotReadError extends Error {
  constructor(position: number) {
    super(`the data of entry ${position} was not read`);
  }
}

/**
 * An entry whose data and metadata stay JSON text until read: a verifier reads them only for a
 * checkpoint or a break. `json` is either the two texts, as the log stores them, or one object
 * holding both, as an export line does (its text or its UTF-8 bytes), or absent: reading the
 * objects then throws `ObjectsNotReadError`. A class, not an object with getters per entry: a million
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
  leafHash?: Buffer;
  treeNodes?: Buffer;
  readonly writerMac?: string | null;
  readonly references?: string;
  private parsed: Objects | undefined;

  constructor(
    fields: Fields,
    private readonly json: { data: string; metadata: string } | string | Buffer | undefined,
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
    this.leafHash = fields.leafHash;
    this.treeNodes = fields.treeNodes;
    this.writerMac = fields.writerMac;
    this.references = fields.references;
  }

  get data(): LogEntry['data'] {
    return this.objects().data;
  }

  get metadata(): LogEntry['metadata'] {
    return this.objects().metadata;
  }

  private objects(): Objects {
    const { json } = this;
    if (json === undefined) throw new ObjectsNotReadError(this.position);
    this.parsed ??=
      typeof json === 'string' || Buffer.isBuffer(json)
        ? (JSON.parse(json.toString()) as Objects)
        : {
            data: JSON.parse(json.data) as Objects['data'],
            metadata: JSON.parse(json.metadata) as Objects['metadata'],
          };
    return this.parsed;
  }
}
