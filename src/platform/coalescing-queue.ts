/**
 * Requests served together, one round trip at a time: those that arrive while a round trip is out
 * wait for it and are then served together, in the next. Alone, a request is served at once; under
 * load one round trip serves many.
 */
export class CoalescingQueue<Request, Result> {
  private waiting: { request: Request; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  private serving = false;

  /**
   * `serve`: one round trip for the requests, resolving to a result for each, in their order; when
   * it throws, every one of them fails with its error. `take`: how many of the waiting requests the
   * next round trip serves, at least one (default all of them).
   */
  constructor(
    private readonly serve: (requests: Request[]) => Promise<Result[]>,
    private readonly take: (waiting: Request[]) => number = (waiting) => waiting.length,
  ) {}

  push(request: Request): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (!this.serving) void this.serveWaiting();
    });
  }

  private async serveWaiting(): Promise<void> {
    this.serving = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.take(this.waiting.map(({ request }) => request)));
      try {
        const results = await this.serve(batch.map(({ request }) => request));
        batch.forEach(({ resolve }, i) => resolve(results[i]));
      } catch (error) {
        for (const { reject } of batch) reject(error);
      }
    }
    this.serving = false;
  }
}
