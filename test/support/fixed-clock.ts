import { Clock } from '../../src/platform/clock';

/** A clock the test moves by hand. */
export class FixedClock extends Clock {
  constructor(private current = new Date('2026-11-21T12:00:00.000Z')) {
    super();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
