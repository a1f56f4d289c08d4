import { readAhead } from './read-ahead';

describe('readAhead', () => {
  /** A source that logs when each item is asked for, and whether it was closed. */
  function source(count: number, failAt?: number) {
    const log: string[] = [];
    async function* items() {
      try {
        for (let i = 1; i <= count; i++) {
          log.push(`read ${i}`);
          await Promise.resolve();
          if (i === failAt) throw new Error(`item ${i} failed`);
          yield i;
        }
      } finally {
        log.push('closed');
      }
    }
    return { log, items: items() };
  }

  it('gives every item in order, the next one asked for before the current one is used', async () => {
    const { log, items } = source(3);
    const seen: number[] = [];
    for await (const item of readAhead(items)) {
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`use ${item}`);
      seen.push(item);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(log).toEqual(['read 1', 'read 2', 'use 1', 'read 3', 'use 2', 'closed', 'use 3']);
  });

  it('throws a failed item when its turn comes, after the ones before it', async () => {
    const { items } = source(3, 2);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of readAhead(items)) {
          await new Promise((resolve) => setImmediate(resolve));
          seen.push(item);
        }
      })(),
    ).rejects.toThrow('item 2 failed');
    expect(seen).toEqual([1]);
  });

  it('closes the source when the reader stops early, with no unhandled rejection from the item read ahead', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { log, items } = source(3, 2);
      for await (const item of readAhead(items)) if (item === 1) break;
      await new Promise((resolve) => setImmediate(resolve));
      expect(log).toEqual(['read 1', 'read 2', 'closed']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
