import { Injectable } from '@nestjs/common';
import { DomainError } from '../platform/errors/domain-error';

/** How long a verification waits for the one running before it is refused. */
const WAIT_MS = 2000;
/** What a refused caller is told to wait: a verification of a large log takes seconds. */
export const RETRY_AFTER_SECONDS = 5;

export class VerificationInProgressError extends DomainError {
  constructor() {
    super(
      'VERIFICATION_IN_PROGRESS',
      `Another verification of the log is running; retry in ${RETRY_AFTER_SECONDS} seconds`,
      429,
    );
  }
}

/**
 * One verification at a time in this process (issue 33, "Load"), of the hash chain or of a read
 * model against the log: each reads the whole log, and eight at once took 1.3 GB and stalled sales for seconds. A request for the very range
 * already being verified shares that answer; any other waits up to WAIT_MS for its turn, then is
 * refused with 429 and Retry-After.
 */
@Injectable()
export class VerificationGate {
  private running: { key: string; done: Promise<unknown> } | undefined;
  private queued = 0;

  async run<T>(key: string, verify: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    while (this.running) {
      if (this.running.key === key) return this.running.done as Promise<T>;
      // Only one waits: a second waiter would run right after the first, which is no turn of its own.
      if (this.queued > 0 || Date.now() >= deadline) throw new VerificationInProgressError();
      this.queued += 1;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.running.done.catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now()))),
      ]).finally(() => {
        this.queued -= 1;
        // A turn that came before the deadline must not leave its timer keeping the process alive.
        clearTimeout(timer);
      });
    }
    const done = verify();
    this.running = { key, done };
    try {
      return await done;
    } finally {
      this.running = undefined;
    }
  }
}
