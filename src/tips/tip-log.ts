import { Injectable } from '@nestjs/common';
import { eventMetadata, type CommandContext } from '../auth/command-context';
import { decideAndAppend, type Decider, type DomainEvent } from '../common/decider';
import { IdempotencyStore, type IdempotentRequest } from '../common/idempotency';
import { EventStore, type StoredEvent } from '../event-store/event-store.port';
import type { Sql } from '../event-store/sql';

export interface TipAppend<Command, State, Event extends DomainEvent> {
  stream: string;
  decider: Decider<Command, State, Event>;
  command: Command;
  context: CommandContext;
  merchantId: string;
  /** Present when the client sent an Idempotency-Key. */
  idempotency?: IdempotentRequest;
}

/** The one impure step of every tip command: decide on the record's stream, append, answer. */
@Injectable()
export class TipLog {
  constructor(
    private readonly store: EventStore,
    private readonly idempotency: IdempotencyStore,
  ) {}

  /**
   * `answer` runs inside the append transaction, after the inline tips projector, so it can read
   * the read model as a GET would and check what other streams did meanwhile (throwing rolls the
   * append back); its result is saved there for the Idempotency-Key.
   */
  async append<Command, State, Event extends DomainEvent, Response>(
    { stream, decider, command, context, merchantId, idempotency }: TipAppend<Command, State, Event>,
    answer: (tx: Sql, stored: StoredEvent[]) => Promise<Response> | Response,
  ): Promise<Response> {
    let response: Response | undefined;
    await decideAndAppend(this.store, stream, decider, command, eventMetadata(context, merchantId), {
      inTransaction: async (tx, stored) => {
        response = await answer(tx, stored);
        if (idempotency) await this.idempotency.save(tx, idempotency, response);
      },
    });
    return response!;
  }
}
