import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { IQuery } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Observable } from 'rxjs';
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

/** The answer of the request being served, so that a read from the replica can say so on it. */
const answers = new AsyncLocalStorage<FastifyReply>();

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
    answers.getStore()?.header(DATA_AS_OF_HEADER, dataAsOf.toISOString());
    return { db: this.replica.database, dataAsOf };
  }
}

/** Runs each request with its answer at hand for QueryDatabases. */
@Injectable()
export class AnswerContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return new Observable((subscriber) => answers.run(reply, () => next.handle().subscribe(subscriber)));
  }
}
