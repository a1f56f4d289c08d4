import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

export default function globalTeardown(): void {
  const snapshot = process.env.CRCS_PGLITE_SNAPSHOT;
  if (snapshot) rmSync(dirname(snapshot), { recursive: true, force: true });
}
