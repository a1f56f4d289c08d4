/** Time comes through this port so that deciders and tests never read the system clock directly. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
