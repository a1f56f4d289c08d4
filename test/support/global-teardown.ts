import { rmSync } from 'node:fs';

export default function globalTeardown(): void {
  const dir = process.env.CRCS_TEST_TMP;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
