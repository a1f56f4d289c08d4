import type { Decider, DomainEvent } from '../../src/platform/decider';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * `given(decider, history).when(command).then(events)` or `.thenThrows(...)`: decider tests read
 * as the rule they check. `then` returns what was decided, for a closer look at one field.
 */
export function given<C, S, E extends DomainEvent>(decider: Decider<C, S, E>, history: E[] = []) {
  const state = history.reduce(decider.evolve, decider.initialState());
  return {
    /** The state the history folds to, for checking `evolve`. */
    state,
    when(command: C) {
      const decide = () => decider.decide(command, state);
      return {
        then(expected: E[]): E[] {
          const events = decide();
          expect(events).toEqual(expected);
          return events;
        },
        /** An error class (and fields the error must have), or a matcher such as `expect.objectContaining({...})`. */
        thenThrows(expected: ErrorClass | object, fields: Record<string, unknown> = {}): void {
          let thrown: unknown;
          try {
            decide();
          } catch (error) {
            thrown = error;
          }
          if (thrown === undefined) throw new Error('expected the decider to throw, but it decided');
          if (typeof expected === 'function') {
            expect(thrown).toBeInstanceOf(expected);
            expect(thrown).toMatchObject(fields);
          } else {
            expect(thrown).toEqual(expected);
          }
        },
      };
    },
  };
}
