import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from './embedded-postgres';

describe('EmbeddedPostgres refuses a data folder it cannot serve, with the reason', () => {
  it('whose socket path would not fit in 107 bytes', async () => {
    const long = join(tmpdir(), 'x'.repeat(90));
    await expect(EmbeddedPostgres.start(long)).rejects.toThrow(/^DATA_DIR \S+ is too long: the embedded database's socket \S+ would be over 107 bytes; choose a shorter folder$/);
  });

  (process.getuid?.() === 0 ? it : it.skip)('that the postgres OS user cannot reach, when the service runs as root', async () => {
    const privateParent = mkdtempSync(join(tmpdir(), 'crcs-private-'));
    try {
      await expect(EmbeddedPostgres.start(join(privateParent, 'data'))).rejects.toThrow(
        /^the embedded database runs as the OS user postgres \(uid \d+\), which cannot reach \S+: make every folder on the way searchable for it \(chmod o\+x\) or choose another DATA_DIR$/,
      );
    } finally {
      rmSync(privateParent, { recursive: true, force: true });
    }
  });
});
