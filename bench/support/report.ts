import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const REPORT = join(__dirname, '../../docs/benchmarks.md');

/** Replaces what lies between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`; the prose around it is kept. */
export async function replaceSection(name: string, text: string): Promise<void> {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const report = await readFile(REPORT, 'utf8');
  const from = report.indexOf(start);
  const to = report.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/benchmarks.md has no ${start} … ${end} section`);
  await writeFile(REPORT, `${report.slice(0, from + start.length)}\n${text}\n${report.slice(to)}`);
}
