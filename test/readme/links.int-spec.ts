import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** Every Markdown file of the project's own: the README and everything it links, docs, examples, seeds. */
function markdownFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', '.git'].includes(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** A clone is all a reader has: the project's docs stand alone, and link nothing outside it. */
describe("the project's documents", () => {
  it('link only files that are in the repository', () => {
    const files = markdownFiles();
    expect(files).toContain(join(ROOT, 'README.md'));
    const broken = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map(([, target]) => target)
        .filter((target) => !/^(https?:|mailto:|#)/.test(target))
        .filter((target) => {
          const path = resolve(dirname(file), decodeURIComponent(target.split('#')[0]));
          return relative(ROOT, path).startsWith('..') || !existsSync(path);
        })
        .map((target) => `${relative(ROOT, file)}: ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
