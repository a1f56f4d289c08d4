import { lz4WhereSupported, type Database } from './sql';

/**
 * Versioned, append-only list: a migration once released is never edited, only followed by another.
 * Read models are not here: projectors own their tables (see projections/).
 */
export const MIGRATIONS: { version: number; name: string; statements: string[] }[] = [
  {
    version: 1,
    name: 'event log, chain head, projection checkpoints',
    statements: [
      `create table events (
        position bigint primary key,
        entry_id uuid not null unique,
        stream_id text not null,
        stream_revision int not null check (stream_revision >= 1),
        event_type text not null,
        data jsonb not null,
        metadata jsonb not null,
        recorded_at timestamptz not null,
        prev_hash char(64) not null,
        hash char(64) not null,
        unique (stream_id, stream_revision)
      )`,
      'create index events_type_idx on events (event_type, position)',
      `create table event_store_head (
        id boolean primary key default true check (id),
        position bigint not null,
        hash char(64) not null
      )`,
      `insert into event_store_head (id, position, hash) values (true, 0, repeat('0', 64))`,
      `create table projection_checkpoints (
        name text primary key,
        version int not null,
        position bigint not null,
        updated_at timestamptz not null
      )`,
    ],
  },
  {
    version: 2,
    name: 'idempotency keys',
    statements: [
      // Written in the same transaction as the events a request appended, so neither exists without the other.
      // The body is text, not jsonb, so that a replay sends the very bytes of the first answer.
      `create table idempotency_keys (
        scope text not null,
        idempotency_key text not null,
        fingerprint char(64) not null,
        response_status int not null,
        response_body text not null,
        created_at timestamptz not null,
        primary key (scope, idempotency_key)
      )`,
    ],
  },
  {
    version: 3,
    name: 'audit log filters',
    statements: [
      // GET /admin/audit-logs pages by position; these let a filter by actor or time skip the rest of the log.
      `create index events_actor_idx on events ((metadata->'actor'->>'keyId'), position)`,
      'create index events_recorded_at_idx on events (recorded_at, position)',
    ],
  },
  {
    version: 4,
    name: 'merkle tree',
    statements: [
      // Node (level, idx) is the root of the 2^level leaves from idx * 2^level (packages/tlog/src/merkle-tree.ts).
      `create table merkle_nodes (
        level smallint not null,
        idx bigint not null,
        hash bytea not null,
        primary key (level, idx)
      )`,
    ],
  },
  {
    version: 5,
    name: 'events keep the JSON texts they were hashed over',
    statements: [
      // json keeps its text as written (jsonb re-orders and re-spaces it): the store writes the
      // canonical texts, and verification hashes them without parsing. Rows written before keep
      // jsonb's text and are verified by rebuilding their canonical JSON, as all were before.
      'alter table events alter column data type json using data::text::json, alter column metadata type json using metadata::text::json',
    ],
  },
  {
    version: 6,
    name: 'webhook endpoints and deliveries',
    statements: [
      // Not read models: an endpoint's secret and a delivery's attempts are not in the log (a secret
      // in the log would be in every export), so a rebuild must never drop them.
      `create table webhook_endpoints (
        id text primary key,
        url text not null,
        event_types text[] not null,
        description text,
        owner_role text not null,
        owner_merchant_id text,
        owner_partner_id text,
        environment text not null,
        created_by_key text not null,
        secret text not null,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        status text not null,
        disabled_reason text,
        after_position bigint not null,
        created_at timestamptz not null
      )`,
      `create table webhook_deliveries (
        id bigint generated always as identity primary key,
        endpoint_id text not null references webhook_endpoints (id) on delete cascade,
        webhook_id text not null,
        event_type text not null,
        position bigint not null,
        event_time timestamptz not null,
        payload text not null,
        status text not null,
        attempts int not null default 0,
        next_attempt_at timestamptz not null,
        last_attempt_at timestamptz,
        last_status_code int,
        last_error text,
        response_excerpt text,
        delivered_at timestamptz,
        unique (endpoint_id, webhook_id)
      )`,
      "create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'",
      'create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, position desc)',
    ],
  },
  {
    version: 7,
    name: 'events carry their writer authenticator',
    statements: [
      // HMAC of the entry's hash under a key outside the database (packages/tlog/src/writer-mac.ts); null
      // on rows written before, or by a service with no signing key. Not part of the hash: it vouches for it.
      'alter table events add column writer_mac text',
    ],
  },
  {
    version: 8,
    name: 'the log origin',
    statements: [
      // The log's name in its checkpoints (src/platform/event-store/log-origin.ts): one row, written at the first start, never changed.
      `create table log_origin (
        id boolean primary key default true check (id),
        origin text not null,
        fixed_at timestamptz not null default now()
      )`,
    ],
  },
  {
    version: 9,
    name: 'witness cosignatures',
    statements: [
      // What the witnesses of LOG_POLICY_FILE answered (src/audit/cosignatures.ts): one line of each on a checkpoint, served
      // with it. Kept outside the log: a cosignature is about the log, and is checked against the witness's key wherever it is read.
      `create table checkpoint_cosignatures (
        tree_size bigint not null,
        root_hash bytea not null,
        witness_key text not null,
        signature_line text not null,
        cosigned_at timestamptz not null,
        primary key (tree_size, witness_key)
      )`,
    ],
  },
  {
    version: 10,
    name: 'webhook deliveries name their entry and their try in flight',
    statements: [
      // The hash of the entry a delivery was fanned out from: it is sent only while the log holds that
      // entry (src/webhooks/deliver/webhook-deliverer.ts), so a row written into the table by SQL is not signed.
      'alter table webhook_deliveries add column entry_hash char(64)',
      'update webhook_deliveries d set entry_hash = e.hash from events e where e.position = d.position',
      // Until when a worker holds the delivery for its try, outside any transaction (the receiver may take
      // seconds); a worker killed mid-try lets it go when this passes. Also what the concurrency bounds count.
      'alter table webhook_deliveries add column in_flight_until timestamptz',
    ],
  },
  {
    version: 11,
    name: 'a transaction record found in the log by its id',
    statements: [
      // Read models follow the log after the append: a transaction read by id before they caught up
      // is folded from its stream, found here (a VOID or REFUND lives in its sale's stream), and a
      // newly drawn record id is checked against the log, not a read model (src/transactions/read-model/transaction-reads.ts).
      `create index events_transaction_id_idx on events ((data->>'transaction_id'), position)`,
    ],
  },
  {
    version: 12,
    name: 'entries and kept answers compressed with lz4 where the server has it',
    statements: [lz4WhereSupported('events', ['data']), lz4WhereSupported('idempotency_keys', ['response_body'])],
  },
  {
    version: 13,
    name: "a kept answer's log position, for its replays",
    // Null for the answers kept before it, whose replays carry no X-Log-Position.
    statements: ['alter table idempotency_keys add column log_position bigint'],
  },
];

/** A fixed key: two service processes starting on one database apply each migration once. */
const MIGRATION_LOCK = 7_140_503_211;

export async function migrate(db: Database): Promise<void> {
  for (const m of MIGRATIONS) {
    await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.query(`create table if not exists schema_migrations (
        version int primary key, name text not null, applied_at timestamptz not null default now())`);
      const done = await tx.query('select 1 from schema_migrations where version = $1', [m.version]);
      if (done.length > 0) return;
      for (const statement of m.statements) await tx.query(statement);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
    });
  }
}
