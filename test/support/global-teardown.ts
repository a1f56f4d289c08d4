import { globalState } from './global-setup';
import { removeRunFolder } from './run-folder';
import { adminQuery } from './test-database';

/** Drops the run's templates, stops its servers, then whatever a failed suite left running in the run's folder, and removes the folder. */
export default async function globalTeardown(): Promise<void> {
  for (const { server, name } of globalState.crcsTemplates ?? [])
    await adminQuery(server, `drop database if exists ${name} with (force)`).catch((error: Error) =>
      console.warn(`the template ${name} was not dropped: ${error.message}`),
    );
  await globalState.crcsEmbeddedServer?.stop();
  await globalState.crcsStandby?.remove();
  const dir = process.env.CRCS_TEST_TMP;
  if (dir) await removeRunFolder(dir);
}
