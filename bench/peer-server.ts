/**
 * The peer of the transaction bench (issue 37): another event-sourced write path, Emmett's
 * PostgreSQL event store, as a Fastify user would put it behind a route: one `SaleRecorded` event
 * per request appended to a new stream with an expected-version check (the stream must not exist),
 * over a pg pool of the service's size. It does none of the service's other work: no key, no
 * validation, no rounding, no hash chain, no read model. Run by bench/transactions.bench.ts with
 * PORT and DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { getPostgreSQLEventStore, PostgreSQLEventStoreDefaultStreamVersion } from '@event-driven-io/emmett-postgresql';
import Fastify from 'fastify';
import { Pool } from 'pg';

async function main(): Promise<void> {
  const connectionString = process.env.DATABASE_URL!;
  const pool = new Pool({ connectionString, max: 10 });
  const store = getPostgreSQLEventStore(connectionString, { connectionOptions: { pooled: true, pool } });
  await store.schema.migrate();
  const app = Fastify();
  app.get('/api/v1/health', async () => ({ status: 'ok' }));
  app.post('/api/v1/peer', async (request, reply) => {
    const body = request.body as Record<string, unknown>;
    const id = randomUUID();
    const result = await store.appendToStream(
      `sale-${id}`,
      [{ type: 'SaleRecorded', data: body }],
      // Version 0, not STREAM_DOES_NOT_EXIST: in 0.42 the latter reaches the database as no
      // expectation at all (a second append to the stream succeeds); 0 makes the stream row's
      // insert the check, and a second append fails with ExpectedVersionConflictError.
      { expectedStreamVersion: PostgreSQLEventStoreDefaultStreamVersion },
    );
    return reply.status(201).send({ id, stream_version: String(result.nextExpectedStreamVersion) });
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(
      signal,
      () =>
        void app
          .close()
          .then(() => store.close())
          .then(() => pool.end())
          .then(() => process.exit(0)),
    );
  }
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
}

void main();
