import { EventStore, type AppendOptions, type EventMetadata, type StoredEvent } from './event-store/event-store.port';
import { RevisionConflictError } from './event-store/event-store.errors';

/** An event as a decider makes it; the command handler adds the metadata. */
export interface DomainEvent {
  type: string;
  data: object;
}

/** A decider (docs/design.md, "Shape"): pure, no clock, no database; `evolve` is total and never throws, `decide` throws a DomainError. */
export interface Decider<Command, State, Event extends DomainEvent> {
  initialState(): State;
  evolve: (state: State, event: Event) => State;
  decide(command: Command, state: State): Event[];
}

/** A stream that changed under us is re-read and decided again: the decider then sees what the other writer did. */
const ATTEMPTS = 3;

/**
 * The impure step of a command handler: read the stream, fold it, decide, append with the revision
 * that was read. Returns the stream's state after the decision and the events appended (none when
 * the decider had nothing to record). `inTransaction` runs inside the append transaction, to save
 * an idempotency record or build the answer from the stored events. `fresh`: the stream is new
 * (its id was just drawn), and a clash is left to withNewRecordId to draw another.
 */
export async function decideAndAppend<Command, State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
  options: Pick<AppendOptions, 'inTransaction'> & { fresh?: boolean } = {},
): Promise<{ state: State; appended: StoredEvent[] }> {
  const { fresh, ...append } = options;
  for (let attempt = 1; ; attempt++) {
    // A stream under a freshly drawn id has nothing to read; expectedRevision 0 proves it (a clash is a RevisionConflictError).
    const history = fresh ? [] : await store.readStream(streamId);
    const current = history.reduce(
      (state, stored) => decider.evolve(state, stored as unknown as Event),
      decider.initialState(),
    );
    const events = decider.decide(command, current);
    const state = events.reduce(decider.evolve, current);
    if (events.length === 0) return { state, appended: [] };
    try {
      const appended = await store.append(
        streamId,
        events.map((event) => ({ type: event.type, data: { ...event.data }, metadata })),
        { expectedRevision: history.length, ...append },
      );
      return { state, appended };
    } catch (error) {
      if (fresh || !(error instanceof RevisionConflictError) || attempt === ATTEMPTS) throw error;
    }
  }
}
