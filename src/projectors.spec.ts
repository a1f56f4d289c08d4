import { PROJECTORS } from './projectors';

describe('PROJECTORS', () => {
  it('lists each read model before any projector that reads it, so that a batch reaches the reader after it', () => {
    const names = PROJECTORS.map((p) => p.name);
    for (const [index, p] of PROJECTORS.entries()) {
      for (const read of p.reads ?? []) {
        expect(names).toContain(read);
        expect({ reader: p.name, before: names.indexOf(read) < index }).toEqual({ reader: p.name, before: true });
      }
    }
  });
});
