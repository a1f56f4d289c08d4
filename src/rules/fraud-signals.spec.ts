import { assess, riskLevelOf, signal } from './fraud-signals';

describe('fraud signals', () => {
  it.each([
    [0, 'NONE'],
    [1, 'LOW'],
    [24, 'LOW'],
    [25, 'MEDIUM'],
    [49, 'MEDIUM'],
    [50, 'HIGH'],
    [74, 'HIGH'],
    [75, 'CRITICAL'],
    [100, 'CRITICAL'],
  ])('maps %i to %s', (score, level) => {
    expect(riskLevelOf(score)).toBe(level);
  });

  it.each([
    [1.99, undefined],
    [2, 10],
    [3.5, 25],
    [4, 40],
    [99, 40],
  ])('scores a ROUND_UP_BIAS z of %p at the points of the highest tier reached: %p', (z, points) => {
    expect(signal('ROUND_UP_BIAS', z, 'd')?.points).toBe(points);
  });

  it('scores a yes/no signal when it holds', () => {
    expect(signal('ZIP_STATE_MISMATCH', true, 'd')).toEqual({ code: 'ZIP_STATE_MISMATCH', points: 20, detail: 'd' });
    expect(signal('ZIP_STATE_MISMATCH', false, 'd')).toBeUndefined();
  });

  it('adds the points of the signals that fired, capped at 100', () => {
    expect(assess([undefined])).toEqual({ fraud_score: 0, risk_level: 'NONE', signals: [] });
    const many = assess([
      signal('ROUND_UP_BIAS', 5, 'a'),
      signal('HIGH_VOID_RATE', 0.5, 'b'),
      signal('PENNY_ENDINGS_SKEWED', 90, 'c'),
      signal('EXPLICIT_MODE_GAINS', 1, 'd'),
    ]);
    expect(many.signals.map((s) => s.points)).toEqual([40, 20, 20, 30]);
    expect(many).toMatchObject({ fraud_score: 100, risk_level: 'CRITICAL' });
  });
});
