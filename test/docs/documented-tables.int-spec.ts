import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPORT_COLUMNS, EXPORT_MODES } from '../../src/export/export-transactions/export-columns';
import { FRAUD_SIGNALS, RISK_LEVELS } from '../../src/rules/fraud-signals';

/** The tables the docs print that the code also holds: read from the files, so here and not beside the code. */
const ROOT = join(__dirname, '../..');

const names = (mode: (typeof EXPORT_MODES)[number]) => EXPORT_COLUMNS[mode].map((c) => c.name);

describe('export columns', () => {
  it('docs/export.md lists every column, in order, with the modes that carry it', () => {
    const doc = readFileSync(join(ROOT, 'docs/export.md'), 'utf8');
    // Rows of the column table: | n | `name` | modes | meaning |
    const rows = [...doc.matchAll(/^\| \d+ \| `([a-z_]+)` \| ([a-z, ]+) \|/gm)].map(([, name, modes]) => ({
      name,
      modes: modes.split(', '),
    }));
    expect(rows.map((row) => row.name)).toEqual(names('full'));
    for (const mode of EXPORT_MODES)
      expect([mode, rows.filter((row) => row.modes.includes(mode)).map((row) => row.name)]).toEqual([
        mode,
        names(mode),
      ]);
  });
});

describe('fraud signals', () => {
  it('is the table docs/fraud-scoring.md documents, signal by signal', () => {
    const doc = readFileSync(join(ROOT, 'docs/fraud-scoring.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| ([\d /]+) \|/gm)].filter(
      ([, code]) => !(RISK_LEVELS as readonly string[]).includes(code),
    );
    const documented = Object.fromEntries(rows.map(([, code, points]) => [code, points.trim()]));
    const table = Object.fromEntries(
      Object.entries(FRAUD_SIGNALS).map(([code, tiers]) => [code, tiers.map(([, points]) => points).join(' / ')]),
    );
    expect(documented).toEqual(table);
  });
});
