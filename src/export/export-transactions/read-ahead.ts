/**
 * The same items, the next one already asked for while the current one is in use: the export's
 * next batch is being read (the query in PostgreSQL, its rows parsed) while the current one is
 * written as CSV, instead of the two taking turns. At most one item is held beyond the current one.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const items = source[Symbol.asyncIterator]();
  let next = items.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = items.next();
      // A failure of the next item is thrown when its turn comes, or dropped if the reader has gone
      // by then; it must not be an unhandled rejection meanwhile, which would end the process.
      next.catch(() => undefined);
      yield current.value;
    }
  } finally {
    // A reader that stops early (the client went away) stops the source too, once its pending item is in.
    await items.return?.();
  }
}
