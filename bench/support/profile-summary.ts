/**
 * Self time of a V8 CPU profile (`node --cpu-prof`), by package and by function: what a bench's
 * BENCH_CPU_PROF run left. `--during <function>` counts only the samples from the first to the last
 * that have that function on their stack (e.g. `csvChunks`: the export alone, not the start of the
 * service), idle ones between them included.
 *
 * Run: node -r ts-node/register/transpile-only bench/support/profile-summary.ts <file.cpuprofile> [--top 30] [--during name]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** `pg`, `papaparse`, `node:internal`, `service` (our dist/), or V8's own pseudo-frames. */
function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:')) return 'node:internal';
  if (url.includes('/dist/')) return 'service';
  return url;
}

function main(): void {
  const [file, ...rest] = process.argv.slice(2);
  const option = (name: string) => {
    const at = rest.indexOf(`--${name}`);
    return at >= 0 ? rest[at + 1] : undefined;
  };
  const top = Number(option('top') ?? 30);
  const during = option('during');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const underDuring = (id: number | undefined): boolean =>
    id !== undefined && (byId.get(id)!.callFrame.functionName === during || underDuring(parent.get(id)));
  let first = 0;
  let last = profile.samples.length - 1;
  if (during) {
    first = profile.samples.findIndex((id) => underDuring(id));
    while (!underDuring(profile.samples[last])) last--;
    if (first < 0) throw new Error(`no sample has ${during} on its stack`);
  }
  const self = new Map<number, number>();
  let total = 0;
  for (let i = first; i <= last; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]);
    total += profile.timeDeltas[i];
  }
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const name = `${pkg}  ${functionName || '(anonymous)'}  ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const print = (title: string, entries: Map<string, number>, limit: number) => {
    console.log(`\n${title}`);
    for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, limit))
      console.log(`${(us / 1e6).toFixed(2).padStart(8)} s ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
  };
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s of samples`);
  print('self time by package', byPackage, 20);
  print('self time by function', byFunction, top);
}

main();
