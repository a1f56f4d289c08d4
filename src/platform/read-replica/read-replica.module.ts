import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { PgDatabase } from '../event-store/pg-database';
import { DATABASE, type Database } from '../event-store/sql';
import { QueryDatabases, REPLICA_QUERIES, type QueryClass } from './query-databases';
import { ReadReplica } from './read-replica';

export interface ReadReplicaOptions {
  /** READ_DATABASE_URL; unset: every query reads the primary. */
  url?: string;
  maxLagMs: number;
  /** The queries that may read the replica. */
  queries: readonly QueryClass[];
}

/**
 * The replica is only ever read: no migration, no projector and no LISTEN runs on it (a standby
 * takes no writes and delivers no NOTIFY), so it is a pool of its own and nothing else.
 */
@Global()
@Module({})
export class ReadReplicaModule implements OnApplicationShutdown {
  constructor(private readonly replica: ReadReplica) {}

  static forRoot(options: ReadReplicaOptions): DynamicModule {
    return {
      module: ReadReplicaModule,
      providers: [
        {
          provide: ReadReplica,
          inject: [DATABASE],
          useFactory: (primary: Database) =>
            new ReadReplica(primary, options.url ? new PgDatabase(options.url) : undefined, options.maxLagMs),
        },
        { provide: REPLICA_QUERIES, useValue: new Set(options.queries) },
        QueryDatabases,
      ],
      exports: [ReadReplica, QueryDatabases],
    };
  }

  onApplicationShutdown(): Promise<void> {
    return this.replica.close();
  }
}
