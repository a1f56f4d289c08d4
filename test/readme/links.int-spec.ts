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

/** The project's own text files: sources, tests, scripts, benches, examples, docs, seeds' notes and configuration. */
function textFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', '.git', 'data', 'coverage', 'screenshots'].includes(entry.name)
        ? []
        : textFiles(path);
    return /\.(ts|js|cjs|mjs|md|json|yml|yaml|sh)$|^run$|^Dockerfile$/.test(entry.name) &&
      !/package-lock\.json$|invalid-requests\.json$/.test(entry.name)
      ? [path]
      : [];
  });
}

/**
 * A path the project's documents or comments name, from the repository's root: `src/…`, `docs/…`
 * and the like, with a file extension. Globs, placeholders and paths a test makes at run time are
 * not paths of the repository.
 */
const NAMED_PATH =
  /(?<![\w./-])((?:src|test|docs|scripts|bench|seeds|portal|examples|packages|\.ci)\/[\w./-]*\.(?:ts|js|md|json|csv|css|html|png|cjs))\b/g;

/** What a file says to its reader: a document whole; of a program or script, its comments (its code and strings are data, not references). */
function namedIn(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (/\.(ts|js|cjs|mjs)$/.test(file)) return (text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []).join('\n');
  if (/(^|\/)(Dockerfile|run)$|\.(sh|ya?ml)$/.test(file)) return (text.match(/#[^\n]*/g) ?? []).join('\n');
  return text;
}

describe("the paths the project's documents and comments name", () => {
  it('exist', () => {
    const missing = textFiles().flatMap((file) =>
      [...namedIn(file).matchAll(NAMED_PATH)]
        .map(([, path]) => path)
        .filter((path) => !/[*<>{}]|\.\.\./.test(path) && !existsSync(join(ROOT, path)))
        .map((path) => `${relative(ROOT, file)}: ${path}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('stay inside the repository: no file cites a document that is not in it', () => {
    const outside = textFiles()
      .filter((file) => /(DESIGN|STYLE)\.md|\.\.\/shared\//.test(readFileSync(file, 'utf8')))
      .filter((file) => file !== __filename)
      .map((file) => relative(ROOT, file));
    expect(outside).toEqual([]);
  });
});
