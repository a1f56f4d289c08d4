import { VerificationGate, VerificationInProgressError } from './verification-gate';

/** A verification that ends when the test says. */
function controlled<T>(value: T): { run: () => Promise<T>; end: () => void; calls: () => number } {
  let calls = 0;
  let end!: () => void;
  const done = new Promise<T>((resolve) => (end = () => resolve(value)));
  return { run: () => (calls++, done), end, calls: () => calls };
}

describe('the verification gate: one verification at a time in a process', () => {
  it('shares the running answer with a request for the same range, lets one other wait its turn, and refuses the rest', async () => {
    const gate = new VerificationGate();
    const whole = controlled('whole log');
    const range = controlled('range');
    const first = gate.run('[1,null]', whole.run);
    const same = gate.run('[1,null]', whole.run);
    const waiting = gate.run('[5,10]', range.run);
    const refused = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => gate.run(`[${i + 20},null]`, range.run)),
    );
    expect(
      refused.map((outcome) => outcome.status === 'rejected' && outcome.reason instanceof VerificationInProgressError),
    ).toEqual(Array(6).fill(true));
    whole.end();
    expect(await Promise.all([first, same])).toEqual(['whole log', 'whole log']);
    expect(whole.calls()).toBe(1);
    range.end();
    expect(await waiting).toBe('range');
    expect(range.calls()).toBe(1);
  });

  it('refuses a waiter once its bounded wait is over', async () => {
    jest.useFakeTimers();
    try {
      const gate = new VerificationGate();
      const long = controlled('long');
      void gate.run('a', long.run);
      const waiter = gate.run('b', async () => 'b');
      jest.advanceTimersByTime(2000);
      await expect(waiter).rejects.toBeInstanceOf(VerificationInProgressError);
      long.end();
    } finally {
      jest.useRealTimers();
    }
  });

  it('runs the next one once the gate is free, and is free again after a failure', async () => {
    const gate = new VerificationGate();
    await expect(gate.run('a', async () => Promise.reject(new Error('database gone')))).rejects.toThrow(
      'database gone',
    );
    expect(await gate.run('b', async () => 'b')).toBe('b');
  });
});
