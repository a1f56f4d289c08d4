import type { KeyObject } from 'node:crypto';
import { keyRing } from './checkpoint';
import { checkPromise, isEntryPromise, type EntryPromise } from './entry-promise';

/** A kept promise the log does not keep: which, and why. */
export interface BrokenPromise {
  position: number;
  entry_hash: string;
  timestamp: string;
  problem: string;
}

export interface KeptPromisesCheck {
  promises: number;
  /** Under the checkpoint, with the promised hash at the promised position. */
  confirmed: number;
  /** Beyond the checkpoint, and younger than the grace: to be checked again on the next run. */
  pending: number;
  broken: BrokenPromise[];
}

/**
 * The promises of a file of kept write answers, one JSON value a line (a write's answer, an audit
 * receipt, or a promise on its own); a line that holds none is an error naming it.
 */
export function parseKeptPromises(text: string): EntryPromise[] {
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    let given: unknown;
    try {
      given = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON`);
    }
    const promise = isEntryPromise(given) ? given : (given as { promise?: unknown } | null)?.promise;
    if (!isEntryPromise(promise)) throw new Error(`line ${i + 1} holds no entry promise`);
    return [promise];
  });
}

/**
 * The merchant's side of the promise, in bulk: each kept promise must carry the log's signature,
 * name its origin, and, once the checkpoint covers its position, be of the very hash the log holds
 * there. A promise beyond the checkpoint is pending while younger than `graceS`; older, the log was
 * cut below it or stopped being signed or cosigned. Pure: `logHash` is the log's chain hash at a
 * position, as the checked tiles gave it.
 */
export function checkKeptPromises(
  promises: readonly EntryPromise[],
  log: { origin: string; size: number; key: KeyObject; logHash: (position: number) => string | undefined },
  now: number,
  graceS: number,
): KeptPromisesCheck {
  const keys = keyRing([log.key]);
  const broken: BrokenPromise[] = [];
  let confirmed = 0;
  let pending = 0;
  for (const promise of promises) {
    const { position, entry_hash: entryHash, timestamp } = promise;
    const fail = (problem: string) => broken.push({ position, entry_hash: entryHash, timestamp, problem });
    const signature = checkPromise(promise, keys);
    if (signature !== 'valid') {
      fail(
        signature === 'invalid'
          ? 'its signature does not verify with the log key'
          : `it is signed by key ${promise.key_id}, not by the log's`,
      );
    } else if (promise.origin !== log.origin) {
      fail(`it names the log ${promise.origin}, not ${log.origin}`);
    } else if (position <= log.size) {
      const held = log.logHash(position);
      if (held === entryHash) confirmed += 1;
      else fail(`the log's entry at position ${position} has hash ${held}: the promised entry was deleted or changed`);
    } else if (now - Date.parse(timestamp) < graceS * 1000) {
      pending += 1;
    } else {
      fail(
        `the log's latest cosigned checkpoint (tree size ${log.size}) does not reach position ${position}, promised at ${timestamp}, ` +
          `more than ${graceS} s ago: the entry was cut from the log, or the log is no longer signed or cosigned`,
      );
    }
  }
  return { promises: promises.length, confirmed, pending, broken };
}
