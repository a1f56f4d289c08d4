/**
 * The baselines of the benches: bare Fastify routes over a pg pool of the service's size, doing
 * none of the service's work (no key, no validation, no rounding, no chain). `POST /baseline`
 * inserts one row per request (the request body as jsonb, with an id and a time) into PostgreSQL
 * (bench/transactions.bench.ts); `GET /baseline/:id` reads one row by its primary key and answers
 * it as JSON (bench/transparency.bench.ts). Run with PORT and DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Pool } from 'pg';

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  await pool.query(
    `create table if not exists baseline_sales (
       id uuid primary key, merchant_id text not null, data jsonb not null, recorded_at timestamptz not null)`,
  );
  const app = Fastify();
  app.get('/api/v1/health', async () => ({ status: 'ok' }));
  app.post('/api/v1/baseline', async (request, reply) => {
    const body = request.body as { merchant_id: string };
    const id = randomUUID();
    await pool.query('insert into baseline_sales (id, merchant_id, data, recorded_at) values ($1, $2, $3, now())', [
      id,
      body.merchant_id,
      JSON.stringify(body),
    ]);
    return reply.status(201).send({ id });
  });
  app.get('/api/v1/baseline/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const [row] = (
      await pool.query('select id, merchant_id, data, recorded_at from baseline_sales where id = $1', [id])
    ).rows;
    return row ? row : reply.status(404).send({ error: 'NOT_FOUND', message: `no row ${id}` });
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(
      signal,
      () =>
        void app
          .close()
          .then(() => pool.end())
          .then(() => process.exit(0)),
    );
  }
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
}

void main();
