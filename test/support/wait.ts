import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The ceiling of a wait on a condition: far above what a loaded machine needs (a quiet one meets
 * the condition in milliseconds), so only a condition that never comes fails the test.
 */
export const WAIT_LIMIT_MS = 60_000;

/**
 * Reads until `read` gives a value other than undefined or false, and returns it; throws, naming
 * `what`, after `limitMs`.
 */
export async function waitFor<T>(
  what: string | (() => string),
  read: () => T | undefined | false | Promise<T | undefined | false>,
  limitMs = WAIT_LIMIT_MS,
): Promise<T> {
  for (const deadline = Date.now() + limitMs; ; await sleep(25)) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`waited ${limitMs} ms for ${typeof what === 'string' ? what : what()} in vain`);
  }
}
