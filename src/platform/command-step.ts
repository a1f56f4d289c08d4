import { Injectable } from '@nestjs/common';
import { decideAndAppend, type Decider, type DomainEvent } from './decider';
import { EventStore, type AppendTx, type EventMetadata, type StoredEvent } from './event-store/event-store.port';
import { IdempotencyStore, type IdempotentRequest } from './idempotency/idempotency';
import { withNewRecordId } from './ids';
import { setAnswerHeader } from './answer-context';
import { LOG_POSITION_HEADER } from './projections/log-position';

export interface Step<Command, State, Event extends DomainEvent> {
  stream: string;
  decider: Decider<Command, State, Event>;
  command: Command;
  metadata: EventMetadata;
  /** Present when the client sent an Idempotency-Key. */
  idempotency?: IdempotentRequest;
  /** The stream's id was just drawn: nothing to read, and a clash is a RevisionConflictError (see runNew). */
  fresh?: boolean;
}

/** The one impure step of every write that answers a client: read, decide, append, save the idempotency record, answer. */
@Injectable()
export class CommandStep {
  constructor(
    private readonly store: EventStore,
    private readonly idempotency: IdempotencyStore,
  ) {}

  /**
   * `answer` runs inside the append transaction, under the chain-head lock, where the log holds its
   * entries: it may read them, and check what other streams did meanwhile (throwing rolls the
   * append back); its result is saved there for the Idempotency-Key. The answer says where its last
   * entry is in the log (X-Log-Position): the `min_position` at which lists show the write.
   */
  async run<Command, State, Event extends DomainEvent, Response>(
    { stream, decider, command, metadata, idempotency, fresh }: Step<Command, State, Event>,
    answer: (tx: AppendTx, stored: StoredEvent[]) => Promise<Response> | Response,
  ): Promise<Response> {
    let response: Response | undefined;
    const { appended } = await decideAndAppend(this.store, stream, decider, command, metadata, {
      fresh,
      inTransaction: async (tx, stored) => {
        response = await answer(tx, stored);
        if (idempotency) this.idempotency.save(tx, idempotency, response, stored.at(-1)?.position ?? null);
      },
    });
    if (appended.length > 0) setAnswerHeader(LOG_POSITION_HEADER, String(appended[appended.length - 1].position));
    return response!;
  }

  /**
   * A write that makes a new record: `build` gets a newly drawn id (`PREFIX-YYYY-MM-DD-XXXXXXXX`,
   * the date `at`'s) and gives the step on that id's stream. The stream is fresh (nothing to read,
   * expected revision 0), and when the id turns out to be taken, by a stream or by a record
   * without a stream of its own (RecordIdTakenError), another is drawn.
   */
  runNew<Command, State, Event extends DomainEvent, Response>(
    prefix: string,
    at: Date,
    build: (id: string) => Step<Command, State, Event>,
    answer: (tx: AppendTx, stored: StoredEvent[], id: string) => Promise<Response> | Response,
  ): Promise<Response> {
    return withNewRecordId(prefix, at, (id) =>
      this.run({ ...build(id), fresh: true }, (tx, stored) => answer(tx, stored, id)),
    );
  }
}
