import { rmSync } from 'node:fs';
import { globalState } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  await globalState.crcsEmbeddedServer?.stop();
  await globalState.crcsStandby?.remove();
  const dir = process.env.CRCS_TEST_TMP;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
