import { globalState } from './global-setup';
import { removeRunFolder } from './run-folder';

/** Stops the run's server, then whatever a failed suite left running in the run's folder, and removes the folder. */
export default async function globalTeardown(): Promise<void> {
  await globalState.crcsEmbeddedServer?.stop();
  await globalState.crcsStandby?.remove();
  const dir = process.env.CRCS_TEST_TMP;
  if (dir) await removeRunFolder(dir);
}
