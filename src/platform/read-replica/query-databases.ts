import { Inject, Injectable } from '@nestjs/common';
import type { IQuery } from '@nestjs/cqrs';
import { setAnswerHeader } from '../answer-context';
import { DATABASE, type Database } from '../event-store/sql';
import { ReadReplica } from './read-replica';

/** Set on an answer read from the replica: the primary as it stood at this instant (ISO 8601) is what the answer shows. */
export const DATA_AS_OF_HEADER = 'X-Data-As-Of';

/** The query classes that may read from the replica, handed in by the app: the platform knows no feature. */
export const REPLICA_QUERIES = Symbol('REPLICA_QUERIES');
export type QueryClass = abstract new (...args: never[]) => IQuery;

export interface QueryDatabase {
  db: Database;
  /** Set when `db` is the replica: how current its data is. */
  dataAsOf?: Date;
}

/**
 * The one place that decides which database a query handler reads. A query of the app's replica list
 * reads the replica while it is within READ_MAX_LAG_MS of the primary, and its answer says how
 * current it is; any other query, a listed one when the replica lags or is lost, every command, key
 * check and idempotency record reads the primary.
 */
@Injectable()
export class QueryDatabases {
  constructor(
    @Inject(DATABASE) private readonly primary: Database,
    private readonly replica: ReadReplica,
    @Inject(REPLICA_QUERIES) private readonly onReplica: ReadonlySet<QueryClass>,
  ) {}

  async for(query: IQuery): Promise<QueryDatabase> {
    if (!this.onReplica.has(query.constructor as QueryClass) || !this.replica.database) return { db: this.primary };
    const { state, dataAsOf } = await this.replica.status();
    if (state !== 'serving' || !dataAsOf) return { db: this.primary };
    setAnswerHeader(DATA_AS_OF_HEADER, dataAsOf.toISOString());
    return { db: this.replica.database, dataAsOf };
  }
}
