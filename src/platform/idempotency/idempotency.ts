import { sha256Hex } from '@crcs/tlog';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import canonicalize from 'canonicalize';
import { CoalescingQueue } from '../coalescing-queue';
import { DATABASE, insertRows, prepared, type Database } from '../event-store/sql';
import type { AppendTx, BatchWriter } from '../event-store/event-store.port';
import { Clock } from '../clock';
import { DomainError } from '../errors/domain-error';
import type { Principal } from '../identity/principal';

/** docs/design.md: the same key and body within 24 hours answer what the first request answered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A request that carried an `Idempotency-Key`, as a handler needs it to record its answer. */
export interface IdempotentRequest {
  /** Whose key it is (idempotencyScope): keys of different callers never collide. */
  scope: string;
  key: string;
  /** SHA-256 of the method, path and canonical JSON body: "the same request" means this is equal. */
  fingerprint: string;
  /** The status the route answers with; a replay answers with it too. */
  status: number;
}

export interface RecordedResponse {
  fingerprint: string;
  status: number;
  body: unknown;
  /** Where the write's last entry is in the log (its X-Log-Position); null when it appended none, or was kept before the position was. */
  logPosition: number | null;
}

/**
 * Whose Idempotency-Keys a request's is among: its merchant's, whichever of the merchant's API keys
 * (one per till) sent it, as payment APIs scope them per account, so a retry from another till
 * records nothing twice; a partner's, across its keys; any other API key's own.
 */
export function idempotencyScope({ merchantId, partnerId, keyId }: Principal): string {
  if (merchantId !== undefined) return `merchant:${merchantId}`;
  if (partnerId !== undefined) return `partner:${partnerId}`;
  return `key:${keyId}`;
}

export function requestFingerprint(method: string, url: string, body: unknown): string {
  return sha256Hex(canonicalize({ method, url, body: body ?? null })!);
}

export class IdempotencyKeyReusedError extends DomainError {
  constructor(key: string) {
    super(
      'IDEMPOTENCY_KEY_REUSED',
      `Idempotency-Key ${key} was already used for a different request in the last 24 hours`,
      HttpStatus.CONFLICT,
    );
  }
}

/** The first request with the key is still running, or its record could not be read back: the client retries after Retry-After. */
export class IdempotencyKeyInProgressError extends DomainError {
  constructor(key: string) {
    super(
      'IDEMPOTENCY_KEY_IN_PROGRESS',
      `A request with Idempotency-Key ${key} is being processed; retry it`,
      HttpStatus.CONFLICT,
    );
  }
}

/** Thrown inside the append transaction when another request recorded the same key first: the append rolls back. */
export class IdempotencyKeyTakenError extends Error {
  constructor(readonly request: IdempotentRequest) {
    super(`Idempotency-Key ${request.key} was recorded by a concurrent request`);
  }
}

/** The records of the keys $1 (scopes) and $2 (keys) newer than $3, a row per key in their order (nulls where none). */
const FIND = prepared(`select i.fingerprint, i.response_status, i.response_body, i.log_position
  from unnest($1::text[], $2::text[]) with ordinality as k(scope, idempotency_key, n)
  left join idempotency_keys i on i.scope = k.scope and i.idempotency_key = k.idempotency_key and i.created_at > $3
  order by k.n`);

interface KeyOf {
  scope: string;
  key: string;
}

/** The `idempotency_keys` table (migration 2). Older records than the window are ignored and overwritten on reuse. */
@Injectable()
export class IdempotencyStore {
  /**
   * Every request with a key looks it up before it runs: the look-ups that arrive while one is out
   * are served together by the next statement, so under load a round trip serves many requests.
   */
  private readonly lookups = new CoalescingQueue((keys: KeyOf[]) => this.findAll(keys));

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  find(scope: string, key: string): Promise<RecordedResponse | undefined> {
    return this.lookups.push({ scope, key });
  }

  private async findAll(keys: KeyOf[]): Promise<(RecordedResponse | undefined)[]> {
    const rows = await this.db.query<{
      fingerprint: string | null;
      response_status: number;
      response_body: string;
      log_position: string | null;
    }>(FIND, [keys.map(({ scope }) => scope), keys.map(({ key }) => key), this.windowStart()]);
    return rows.map((row) =>
      row.fingerprint === null
        ? undefined
        : {
            fingerprint: row.fingerprint,
            status: row.response_status,
            body: JSON.parse(row.response_body) as unknown,
            logPosition: row.log_position === null ? null : Number(row.log_position),
          },
    );
  }

  /**
   * Records the answer inside the append transaction (AppendOptions.inTransaction), so a crash
   * cannot keep the events and lose the record or the reverse; the records of a group commit are
   * written together, by `records`.
   */
  save(tx: AppendTx, request: IdempotentRequest, body: unknown, logPosition: number | null): void {
    tx.writeLater(this.records, { request, body, logPosition });
  }

  /**
   * One statement part for a batch's records. The unique key makes a concurrent request with the
   * same key lose here (another process's, or a twin in the same batch, which fails the statement),
   * which rolls its events back.
   */
  private readonly records: BatchWriter<{ request: IdempotentRequest; body: unknown; logPosition: number | null }> = {
    statement: (records, params, when) => {
      const now = this.clock.now().toISOString();
      params.push(this.windowStart());
      const windowStart = params.length;
      const rows = records.map(({ request, body, logPosition }) => ({
        scope: request.scope,
        idempotency_key: request.key,
        fingerprint: request.fingerprint,
        response_status: request.status,
        response_body: JSON.stringify(body),
        log_position: logPosition,
        created_at: now,
      }));
      return `${insertRows('idempotency_keys', rows, params)} where ${when}
         on conflict (scope, idempotency_key) do update
           set fingerprint = excluded.fingerprint, response_status = excluded.response_status,
               response_body = excluded.response_body, log_position = excluded.log_position,
               created_at = excluded.created_at
           where idempotency_keys.created_at <= $${windowStart}
         returning scope, idempotency_key`;
    },
    check: (records, saved) => {
      const written = new Set(
        (saved as { scope: string; idempotency_key: string }[]).map((row) =>
          JSON.stringify([row.scope, row.idempotency_key]),
        ),
      );
      const taken = records.find(({ request }) => !written.has(JSON.stringify([request.scope, request.key])));
      if (taken) throw new IdempotencyKeyTakenError(taken.request);
    },
  };

  private windowStart(): string {
    return new Date(this.clock.now().getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  }
}
