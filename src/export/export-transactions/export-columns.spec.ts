import { EXPORT_COLUMNS, EXPORT_MODES } from './export-columns';

const names = (mode: (typeof EXPORT_MODES)[number]) => EXPORT_COLUMNS[mode].map((c) => c.name);

describe('export columns', () => {
  it('standard has exactly the 53 fields of the spec, each once', () => {
    expect(names('standard')).toHaveLength(53);
    expect(new Set(names('standard')).size).toBe(53);
  });

  it('full has every column once, and the other modes are picked from it in its order', () => {
    const full = names('full');
    expect(new Set(full).size).toBe(full.length);
    for (const mode of EXPORT_MODES) expect(names(mode)).toEqual(full.filter((name) => names(mode).includes(name)));
  });
});
