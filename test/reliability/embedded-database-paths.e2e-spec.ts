import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/platform/event-store/embedded-postgres';

describe('EmbeddedPostgres refuses a data folder it cannot serve, with the reason', () => {
  it('whose socket path would not fit in 107 bytes', async () => {
    const long = join(tmpdir(), 'x'.repeat(90));
    await expect(EmbeddedPostgres.start(long)).rejects.toThrow(
      /^DATA_DIR \S+ is too long: the embedded database's socket \S+ would be over 107 bytes; choose a shorter folder$/,
    );
  });
});
