import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One way to serve a request: a feature's controller holds the HTTP (route, roles, schema, status,
 * headers) and hands the work to the command or the query bus, so every read is a query a handler
 * answers (and QueryDatabases can route). The platform's own document and docs page are files, not
 * a feature's data.
 */
const SRC = join(__dirname, '../../src');
const PLATFORM = join(SRC, 'platform');

function controllers(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === PLATFORM ? [] : controllers(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

/** The types a class's constructor parameters are declared with. */
function injected(source: string): string[] {
  const constructor = /constructor\(([\s\S]*?)\)\s*\{/.exec(source);
  return constructor ? [...constructor[1].matchAll(/:\s*([A-Za-z]+)/g)].map((match) => match[1]) : [];
}

describe('controllers', () => {
  it('of the features inject the command and query buses and nothing else', () => {
    const files = controllers(SRC);
    expect(files.length).toBeGreaterThan(30);
    const others = files
      .map((file) => ({ file: relative(SRC, file), injected: injected(readFileSync(file, 'utf8')) }))
      .filter(
        ({ injected }) =>
          injected.length === 0 || injected.some((type) => type !== 'QueryBus' && type !== 'CommandBus'),
      );
    expect(others.map(({ file }) => file)).toEqual([]);
  });

  it('are caught injecting anything else', () => {
    expect(
      injected('constructor(private readonly queries: QueryBus, @Inject(DATABASE) private readonly db: Database) {}'),
    ).toEqual(['QueryBus', 'Database']);
  });
});
