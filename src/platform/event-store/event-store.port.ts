import type { ChainHead, LogEntry } from '@crcs/tlog';
import type { ChainHeadProblem } from './event-store.errors';
import type { Sql } from './sql';

/** What a command handler hands to `append`: plain JSON, no class instances. */
export interface NewEvent {
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface EventMetadata {
  schemaVersion: number;
  correlationId?: string;
  causationId?: string;
  actor?: { keyId: string; role: string };
  merchantId?: string;
  [key: string]: unknown;
}

/** An event as it reads back from the log: a log entry (`@crcs/tlog`) with the service's metadata. */
export interface StoredEvent extends LogEntry {
  metadata: EventMetadata;
}

/**
 * `number`: the stream's current revision must be exactly this (0 for a stream that does not exist yet).
 * `'any'`: no check.
 */
export type ExpectedRevision = number | 'any';

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  /**
   * The append's own step inside the append transaction, e.g. building the answer and saving its
   * idempotency record. It runs once the events of the whole group commit
   * are written, so its reads see them; throwing fails this append alone. Its writes go through
   * `tx.writeLater`, so that a batch of appends writes them in one statement.
   */
  inTransaction?: (tx: AppendTx, events: StoredEvent[]) => Promise<void>;
}

/**
 * Rows of one kind that appends write beside their events: for a whole batch, a part of the
 * statement that appends it (sql-event-store.ts).
 */
export interface BatchWriter<T> {
  /**
   * The SQL that writes `rows` and returns what `check` needs: a statement that can stand in a
   * `with` (an insert … returning, or a select), its parameters pushed onto `params` and numbered
   * after those already there, its writes held to the condition `when`. Its text must not change
   * with the rows: it is part of a prepared statement.
   */
  statement(rows: T[], params: unknown[], when: string): string;
  /**
   * Throws when `returned` (the statement's rows, as JSON) says a row could not be written: the batch
   * is then written again append by append, so only its append fails.
   */
  check(rows: T[], returned: unknown[]): void;
}

/** The append transaction as an append's step sees it. */
export interface AppendTx extends Sql {
  /** Hands `row` to `writer`, which writes it with the batch's other rows after every append's step. */
  writeLater<T>(writer: BatchWriter<T>, row: T): void;
}

/**
 * Events that depend on the log they will follow (a signed tree head vouches for it): called
 * inside the append transaction, alone in it, with the chain head as it stands right before them
 * and the transaction to read the log through.
 */
export type EventsAfterHead = (head: ChainHead, tx: Sql) => Promise<NewEvent[]>;

export abstract class EventStore {
  abstract append(
    streamId: string,
    events: NewEvent[] | EventsAfterHead,
    options: AppendOptions,
  ): Promise<StoredEvent[]>;
  abstract readStream(streamId: string): Promise<StoredEvent[]>;
  /** Events with position >= fromPosition, in order, at most `limit` of them. */
  abstract readAll(fromPosition: number, limit: number): Promise<StoredEvent[]>;
  /** Called after each commit with the events it made durable; returns the unsubscribe function. */
  abstract subscribe(listener: (events: StoredEvent[]) => void): () => void;
  abstract head(): Promise<ChainHead>;
  /** Called when an append finds the head not where it should be (and refuses); returns the unsubscribe function. */
  abstract watchHead(listener: (problem: ChainHeadProblem) => void): () => void;
}
