import { CoalescingQueue } from './coalescing-queue';

/** A serve function whose round trips the test ends, one at a time. */
function roundTrips() {
  const trips: { requests: number[]; end: (results: string[] | Error) => void }[] = [];
  const serve = (requests: number[]) =>
    new Promise<string[]>((resolve, reject) =>
      trips.push({ requests, end: (results) => (results instanceof Error ? reject(results) : resolve(results)) }),
    );
  return { trips, serve };
}

/** Lets the queue's promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescingQueue', () => {
  it('serves a lone request at once, alone', async () => {
    const { trips, serve } = roundTrips();
    const queue = new CoalescingQueue(serve);
    const answer = queue.push(1);
    expect(trips.map((trip) => trip.requests)).toEqual([[1]]);
    trips[0].end(['one']);
    await expect(answer).resolves.toBe('one');
  });

  it('serves the requests that arrived during a round trip together in the next, each its own result', async () => {
    const { trips, serve } = roundTrips();
    const queue = new CoalescingQueue(serve);
    const first = queue.push(1);
    const later = [queue.push(2), queue.push(3), queue.push(4)];
    expect(trips).toHaveLength(1);
    trips[0].end(['one']);
    await settle();
    expect(trips.map((trip) => trip.requests)).toEqual([[1], [2, 3, 4]]);
    trips[1].end(['two', 'three', 'four']);
    await expect(Promise.all([first, ...later])).resolves.toEqual(['one', 'two', 'three', 'four']);
    // Idle again: the next request goes at once.
    void queue.push(5);
    expect(trips.map((trip) => trip.requests)).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('fails every request of a round trip that throws, and only those', async () => {
    const { trips, serve } = roundTrips();
    const queue = new CoalescingQueue(serve);
    const first = queue.push(1);
    const failed = [queue.push(2), queue.push(3)];
    trips[0].end(['one']);
    await settle();
    const after = queue.push(4);
    const failure = new Error('connection lost');
    trips[1].end(failure);
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    await settle();
    trips[2].end(['four']);
    await expect(Promise.all([first, after])).resolves.toEqual(['one', 'four']);
  });

  it('serves as many of the waiting requests as `take` says, the rest in the round trips after', async () => {
    const { trips, serve } = roundTrips();
    const queue = new CoalescingQueue(serve, (waiting) => Math.min(waiting.length, 2));
    const answers = [1, 2, 3, 4, 5].map((request) => queue.push(request));
    for (let trip = 0; trip < 3; trip++) {
      trips[trip].end(trips[trip].requests.map(String));
      await settle();
    }
    expect(trips.map((trip) => trip.requests)).toEqual([[1], [2, 3], [4, 5]]);
    await expect(Promise.all(answers)).resolves.toEqual(['1', '2', '3', '4', '5']);
  });
});
