/**
 * ZIP resolutions per second over every ZIP in random order, against a bare Map.get
 * over the same keys in the same run, so the ratio holds across machines.
 * Run: npx ts-node bench/zip-resolution.bench.ts [seconds per measurement, default 5]
 */
import { availableParallelism, cpus } from 'node:os';
import { seededRuleStore } from '../test/support/jurisdiction-rules';
import { loadSeeds } from '../src/jurisdiction/seed-loader';
import { shuffled } from './support/random';

const SECONDS = Number(process.argv[2] ?? 5);
const DATE = '2026-10-01';

/** Runs `op` over the keys, round after round, for about `seconds`; returns ops/s. */
function measure(
  keys: readonly string[],
  seconds: number,
  op: (key: string) => number,
): { opsPerSecond: number; checksum: number } {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const start = process.hrtime.bigint();
  let ops = 0;
  let checksum = 0; // consumed below so the work cannot be optimized away
  while (process.hrtime.bigint() < deadline) {
    for (const key of keys) checksum += op(key);
    ops += keys.length;
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  return { opsPerSecond: ops / elapsed, checksum };
}

const seeds = loadSeeds();
const resolver = seededRuleStore(seeds);
const keys = shuffled([...seeds.zips.keys()]);

const resolve = (zip: string) => resolver.resolve({ zip_code: zip, date: DATE }).hierarchy.length;
const mapGet = (zip: string) => seeds.zips.get(zip)!.zip.length;
measure(keys, 1, resolve); // warm-up: let the JIT settle before timing
measure(keys, 1, mapGet);

const resolution = measure(keys, SECONDS, resolve);
const baseline = measure(keys, SECONDS, mapGet);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

console.log(
  `node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${keys.length} ZIPs, ${SECONDS} s each`,
);
console.log(`resolver.resolve(zip): ${fmt(resolution.opsPerSecond)} ops/s`);
console.log(`Map.get(zip) baseline: ${fmt(baseline.opsPerSecond)} ops/s`);
console.log(
  `ratio: resolve is ${(baseline.opsPerSecond / resolution.opsPerSecond).toFixed(1)}x slower than a bare Map.get`,
);
console.log(`(checksums ${resolution.checksum} ${baseline.checksum})`);
