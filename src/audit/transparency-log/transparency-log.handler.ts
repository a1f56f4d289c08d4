import { HttpStatus, Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { DomainError } from '../../platform/errors/domain-error';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { verifierKey, TILE_HEIGHT, TILE_WIDTH, entryBundle, parseTilePath, tileWithin, type TileRef } from '@crcs/tlog';
import { ChainAlarms } from '../chain-alarms';
import { chainTampered } from '../chain-tampered';
import { Cosignatures } from '../cosignatures';
import { LogOrigin } from '../../platform/event-store/log-origin';
import { signingKey } from '../signing-key';
import { CheckpointNotes } from '../checkpoint-notes';
import { CheckpointNoteQuery, TileQuery, VerifierKeyQuery } from './transparency-log.query';

/** The newest checkpoint note that meets the policy's quorum (the newest signed without a policy), with its cosignatures. */
@QueryHandler(CheckpointNoteQuery)
export class CheckpointNoteHandler implements IQueryHandler<CheckpointNoteQuery, string> {
  constructor(private readonly cosignatures: Cosignatures) {}

  execute(): Promise<string> {
    return this.cosignatures.servedNote();
  }
}

@QueryHandler(VerifierKeyQuery)
export class VerifierKeyHandler implements IQueryHandler<VerifierKeyQuery, string> {
  constructor(
    private readonly config: AppConfig,
    private readonly origin: LogOrigin,
  ) {}

  execute(): Promise<string> {
    return Promise.resolve(verifierKey(this.origin.name, signingKey(this.config)));
  }
}

const notFound = (message: string) => new DomainError('NOT_FOUND', message, HttpStatus.NOT_FOUND);

/**
 * Tiles read as stored: a hash tile is a range of one level of `merkle_nodes`, an entry bundle a
 * range of the events' chain hashes (each the 32-byte leaf input of the tree); one indexed range
 * read each, no tree recomputed. Served up to the latest checkpoint's size, so every partial tile
 * of every published size is there, and nothing the log has not signed.
 */
@QueryHandler(TileQuery)
export class TileHandler implements IQueryHandler<TileQuery, { body: Buffer; cacheControl: string }> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly config: AppConfig,
    private readonly alarms: ChainAlarms,
    private readonly notes: CheckpointNotes,
  ) {}

  async execute({ path }: TileQuery): Promise<{ body: Buffer; cacheControl: string }> {
    let tile: TileRef;
    try {
      tile = parseTilePath(path);
    } catch (error) {
      const message = `tile/${path} is not a tile: ${(error as Error).message}`;
      throw new DomainError('VALIDATION_ERROR', message, HttpStatus.BAD_REQUEST, [
        { field: 'path', messages: [message] },
      ]);
    }
    const size = (await this.notes.latest())?.tree_size ?? 0;
    if (!tileWithin(tile, size)) throw notFound(`tile/${path} is beyond the latest checkpoint (tree size ${size})`);
    const first = tile.index * TILE_WIDTH;
    const hashes =
      tile.level === 'entries'
        ? await this.entries(first, tile.width)
        : await this.nodes(tile.level * TILE_HEIGHT, first, tile.width);
    if (hashes.length !== tile.width) {
      const detail = `tile/${path} lacks ${tile.width - hashes.length} of its ${tile.width} hashes, below the signed tree size ${size}`;
      await this.alarms.raise({ source: 'tiles', kind: 'deleted', position: null, detail });
      throw chainTampered(detail);
    }
    // A tile's bytes never change, full or partial (a partial one is a prefix of a later one, never rewritten);
    // behind a key, only the caller's own cache may keep them.
    const cacheControl = `${this.config.logPublic ? 'public' : 'private'}, max-age=31536000, immutable`;
    return { body: tile.level === 'entries' ? entryBundle(hashes) : Buffer.concat(hashes), cacheControl };
  }

  private async entries(first: number, count: number): Promise<Buffer[]> {
    const rows = await this.db.query<{ hash: string }>(
      'select hash from events where position > $1 and position <= $2 order by position',
      [first, first + count],
    );
    return rows.map((row) => Buffer.from(row.hash, 'hex'));
  }

  private async nodes(level: number, first: number, count: number): Promise<Buffer[]> {
    const rows = await this.db.query<{ hash: string }>(
      "select encode(hash, 'hex') as hash from merkle_nodes where level = $1 and idx >= $2 and idx < $3 order by idx",
      [level, first, first + count],
    );
    return rows.map((row) => Buffer.from(row.hash, 'hex'));
  }
}
