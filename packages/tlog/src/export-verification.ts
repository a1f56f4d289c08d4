import type { Readable } from 'node:stream';
import { HASH_POOL, HashPool, entriesOf, movable } from './hash-pool';
import type { ChainVerifier } from './chain-verifier';

/** A line that cannot be read as an entry; `line` counts from 1. */
export class UnreadableLineError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** About 600 lines of a sale: a batch is copied once to its thread, and entries awaiting a break keep theirs. */
const BATCH_BYTES = 1 << 20;

/**
 * Pushes an export (NDJSON, as `GET /admin/audit-logs/export` writes it) into the verifier: runs of
 * whole lines are sent as bytes to worker threads (`parallel`), which read and hash them, while
 * this thread checks their order. Memory: the batches in flight. Blank lines are skipped.
 */
export async function verifyExport(
  input: Readable,
  verifier: Pick<ChainVerifier, 'push'>,
  parallel: boolean,
): Promise<void> {
  const pool = HashPool.start(HASH_POOL, parallel);
  let linesBefore = 0;
  try {
    await pool.each(
      lineRuns(input),
      // The batch is moved to its thread and back with the answer, not copied.
      (batch) => pool.run('lines', batch, movable(batch)),
      (_, checked) => {
        const bytes = Buffer.from(checked.bytes.buffer, checked.bytes.byteOffset, checked.bytes.byteLength);
        entriesOf(checked, (i) => bytes.subarray(checked.ranges[2 * i], checked.ranges[2 * i + 1])).forEach((e) =>
          verifier.push(e),
        );
        if (checked.error) throw new UnreadableLineError(linesBefore + checked.error.line, checked.error.message);
        linesBefore += checked.lineCount;
      },
    );
  } finally {
    await pool.close();
  }
}

/** The input cut after a newline about every BATCH_BYTES, so that no line is split between batches. */
async function* lineRuns(input: Readable): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    pending.push(bytes);
    size += bytes.length;
    if (size < BATCH_BYTES) continue;
    const cut = bytes.lastIndexOf(0x0a) + 1;
    if (cut === 0) continue;
    yield Buffer.concat([...pending.slice(0, -1), bytes.subarray(0, cut)]);
    pending = cut < bytes.length ? [bytes.subarray(cut)] : [];
    size = bytes.length - cut;
  }
  if (size > 0) yield Buffer.concat(pending);
}
