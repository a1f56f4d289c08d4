import type { Readable } from 'node:stream';
import type { CheckedLine } from './chain-export';
import { HashPool } from './chain-hashing';
import type { ChainVerifier } from './chain-verifier';
import { LazyEntry } from './lazy-entry';

/** A line that cannot be read as an entry; `line` counts from 1. */
export class UnreadableLineError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

const BATCH = 2000;

/**
 * Pushes an export (NDJSON, as `GET /admin/audit-logs/export` writes it) into the verifier: lines
 * are read and hashed on worker threads (`parallel`), a batch at a time, while this thread checks
 * their order. Memory: the batches in flight. Blank lines are skipped.
 */
export async function verifyExport(input: Readable, verifier: ChainVerifier, parallel: boolean): Promise<void> {
  const pool = HashPool.start(parallel);
  try {
    await pool.each(
      lineBatches(input),
      'lines',
      (batch) => batch.lines,
      (batch, checked) =>
        checked.forEach((result, i) => {
          if ('error' in result) throw new UnreadableLineError(batch.numbers[i], result.error);
          verifier.push(new LazyEntry(result, batch.lines[i]));
        }),
    );
  } finally {
    await pool.close();
  }
}

async function* lineBatches(input: Readable): AsyncGenerator<{ lines: string[]; numbers: number[] }> {
  input.setEncoding('utf8');
  let batch = { lines: [] as string[], numbers: [] as number[] };
  let rest = '';
  let number = 0;
  const take = (text: string) => {
    number += 1;
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() === '') return;
    batch.lines.push(line);
    batch.numbers.push(number);
  };
  for await (const chunk of input as AsyncIterable<string>) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const part of parts) take(part);
    if (batch.lines.length >= BATCH) {
      yield batch;
      batch = { lines: [], numbers: [] };
    }
  }
  take(rest);
  if (batch.lines.length > 0) yield batch;
}
