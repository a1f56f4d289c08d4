import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { checkKeptPromises, parseKeptPromises } from './kept-promises';
import { signPromise } from './entry-promise';

const { privateKey } = generateKeyPairSync('ed25519');
const publicKey = createPublicKey(privateKey);
const ORIGIN = 'example.com/crcs/store-12';
const hashOf = (position: number) => position.toString(16).padStart(64, '0');
const promiseAt = (position: number, timestamp = '2026-11-29T04:00:00.000Z', hash = hashOf(position)) =>
  signPromise(privateKey, ORIGIN, { position, hash, recordedAt: timestamp });
const NOW = Date.parse('2026-11-29T04:10:00.000Z');
const log = { origin: ORIGIN, size: 10, key: publicKey, logHash: (position: number) => hashOf(position) };

describe('parseKeptPromises', () => {
  it('takes a write answer, an audit receipt or a promise a line, and names a line that holds none', () => {
    const promise = promiseAt(3);
    const text = [JSON.stringify({ transaction: {}, promise }), '', JSON.stringify(promise)].join('\n');
    expect(parseKeptPromises(text)).toEqual([promise, promise]);
    expect(() => parseKeptPromises(`${JSON.stringify(promise)}\n{"promise":null}`)).toThrow(
      'line 2 holds no entry promise',
    );
    expect(() => parseKeptPromises('{')).toThrow('line 1 is not JSON');
  });
});

describe('checkKeptPromises', () => {
  it('confirms a promise under the checkpoint with its hash, and holds one past it pending for the grace', () => {
    expect(checkKeptPromises([promiseAt(3), promiseAt(12, '2026-11-29T04:09:00.000Z')], log, NOW, 300)).toEqual({
      promises: 2,
      confirmed: 1,
      pending: 1,
      broken: [],
    });
  });

  it('names each promise the log does not keep, and why', () => {
    const forged = { ...promiseAt(4), entry_hash: hashOf(99) };
    const { broken } = checkKeptPromises(
      [promiseAt(5, undefined, hashOf(55)), promiseAt(12), forged, { ...promiseAt(6), origin: 'other.example/log' }],
      log,
      NOW,
      300,
    );
    expect(broken.map((b) => [b.position, b.problem])).toEqual([
      [5, `the log's entry at position 5 has hash ${hashOf(5)}: the promised entry was deleted or changed`],
      [
        12,
        "the log's latest cosigned checkpoint (tree size 10) does not reach position 12, promised at 2026-11-29T04:00:00.000Z, " +
          'more than 300 s ago: the entry was cut from the log, or the log is no longer signed or cosigned',
      ],
      [4, 'its signature does not verify with the log key'],
      [6, 'its signature does not verify with the log key'],
    ]);
  });

  it('refuses a promise of another key, and one of the right key for another log', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const elsewhere = signPromise(privateKey, 'other.example/log', {
      position: 2,
      hash: hashOf(2),
      recordedAt: '2026-11-29T04:00:00.000Z',
    });
    const { broken } = checkKeptPromises(
      [signPromise(other, ORIGIN, { position: 2, hash: hashOf(2), recordedAt: '2026-11-29T04:00:00.000Z' }), elsewhere],
      log,
      NOW,
      300,
    );
    expect(broken[0].problem).toMatch(/^it is signed by key [0-9a-f]{16}, not by the log's$/);
    expect(broken[1].problem).toBe(`it names the log other.example/log, not ${ORIGIN}`);
  });
});
