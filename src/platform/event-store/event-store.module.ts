import { setTimeout as sleep } from 'node:timers/promises';
import {
  Global,
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Clock, SystemClock } from '../clock';
import type { Projector } from '../projections/projector';
import { AsyncProjectionRunner, prepareProjections } from '../projections/runner';
import { EventStore } from './event-store.port';
import { LogOrigin } from './log-origin';
import { catchUpTree } from './merkle-store';
import { migrate } from './migrations';
import { EmbeddedPostgres } from './embedded-postgres';
import { DatabaseUnavailableError } from './event-store.errors';
import { PgDatabase } from './pg-database';
import { SqlEventStore } from './sql-event-store';
import { requireWriterAuthentication } from './writer-authentication';
import { DATABASE, type Database } from './sql';

const START_RETRY_MS = 15_000;

/** Injection token for the app's projectors (`readonly Projector[]`), for the check of the read models against the log. */
export const READ_MODELS = Symbol('READ_MODELS');

export interface EventStoreOptions {
  /** postgres:// URL; without it, the embedded server under `dataDir`. */
  databaseUrl?: string;
  /** The embedded server's folder, as DATA_DIR: ./data when unset. */
  dataDir?: string;
  /** The read models, handed in by the app: the store knows no feature. */
  projectors: readonly Projector[];
  /** Authenticates every entry written (packages/tlog/src/writer-mac.ts); derived from the checkpoint signing key. */
  writerKey?: Buffer;
  /** LOG_ORIGIN: the log's name, stored at the first start, then required to match (log-origin.ts). */
  logOrigin?: string;
  asyncPollMs?: number;
}

/** Opens the configured database, brings its schema and read models up to date. */
export async function openDatabase(options: EventStoreOptions): Promise<Database> {
  const db = options.databaseUrl
    ? new PgDatabase(options.databaseUrl)
    : await openEmbedded(options.dataDir ?? './data');
  try {
    await migrateOnceReachable(db);
    await LogOrigin.fix(db, options.logOrigin);
    await catchUpTree(db);
    await prepareProjections(db, options.projectors);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/**
 * A database that is not reachable yet at start (a server still starting, or a first connection
 * timed out while this process was busy loading its seeds) is tried again for a while: only a
 * database still unreachable after that stops the start.
 */
async function migrateOnceReachable(db: Database): Promise<void> {
  const deadline = Date.now() + START_RETRY_MS;
  for (;;) {
    try {
      return await migrate(db);
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError) || Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

/**
 * Five connections, not ten: each is a server process of about 4 MB of its own on the service's
 * machine, and on the 2 cores measured five served as many sales (docs/adr/0002-storage-and-the-event-log.md).
 */
const EMBEDDED_POOL_SIZE = 5;

async function openEmbedded(dataDir: string): Promise<Database> {
  const server = await EmbeddedPostgres.start(dataDir);
  return new PgDatabase(server.url, {
    driver: 'embedded',
    poolSize: EMBEDDED_POOL_SIZE,
    afterClose: () => server.stop(),
  });
}

@Global()
@Module({})
export class EventStoreModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventStore');

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly runner: AsyncProjectionRunner,
    @Inject('EVENT_STORE_OPTIONS') private readonly options: EventStoreOptions,
  ) {}

  static forRoot(options: EventStoreOptions): DynamicModule {
    const projectors = options.projectors;
    return {
      module: EventStoreModule,
      providers: [
        { provide: 'EVENT_STORE_OPTIONS', useValue: options },
        { provide: DATABASE, useFactory: () => openDatabase(options) },
        { provide: Clock, useClass: SystemClock },
        { provide: READ_MODELS, useValue: projectors },
        { provide: LogOrigin, inject: [DATABASE], useFactory: (db: Database) => LogOrigin.fix(db, options.logOrigin) },
        {
          provide: EventStore,
          inject: [DATABASE, Clock],
          useFactory: async (db: Database, clock: Clock) => {
            const store = new SqlEventStore(db, clock, options.writerKey);
            if (options.writerKey) await requireWriterAuthentication(store, db);
            return store;
          },
        },
        {
          provide: AsyncProjectionRunner,
          inject: [DATABASE, EventStore],
          useFactory: (db: Database, store: EventStore) => {
            const logger = new Logger('Projections');
            const runner = new AsyncProjectionRunner(db, projectors, (name, error) =>
              logger.error({ projector: name, err: error }, 'async projector failed; retrying on next wake'),
            );
            store.subscribe(() => runner.wake());
            return runner;
          },
        },
      ],
      exports: [DATABASE, Clock, LogOrigin, EventStore, AsyncProjectionRunner, READ_MODELS],
    };
  }

  onApplicationBootstrap(): void {
    this.runner.start(this.options.asyncPollMs ?? 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await this.db.close();
    this.logger.log('database closed');
  }
}
