import { Query } from '@nestjs/cqrs';

/** The latest signed tree head as a C2SP checkpoint note. */
export class CheckpointNoteQuery extends Query<string> {}

/** The note verifier key of the log's checkpoints. */
export class VerifierKeyQuery extends Query<string> {}

/** A hash tile or an entry bundle, by its path below `log/tile/`. */
export class TileQuery extends Query<{ body: Buffer; cacheControl: string }> {
  constructor(readonly path: string) {
    super();
  }
}
