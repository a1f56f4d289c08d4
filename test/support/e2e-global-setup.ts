import { setUpRun } from './global-setup';

/** The e2e tier's run: both drivers' servers, the browser, and a standby of DATABASE_URL's server when it is set. */
export default function globalSetup(): Promise<void> {
  return setUpRun({ e2e: true });
}
