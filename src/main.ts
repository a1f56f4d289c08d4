import { isIPv6 } from 'node:net';
import { Logger } from 'nestjs-pino';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './app.factory';
import { ConfigError, loadConfig, type AppConfig } from './platform/config/config';
import { EmbeddedDatabaseError } from './platform/event-store/event-store.errors';
import { withEmbeddedSigningKey } from './platform/config/embedded-signing-key';
import { LogOriginMismatchError } from './platform/event-store/log-origin';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // The operator needs the list of bad variables, not a stack trace.
    console.error(error.message);
    process.exit(1);
  }
  const app = await createApp(withEmbeddedSigningKey(config));
  // Not app.enableShutdownHooks(): Nest re-raises the signal once closed, so the process would end
  // killed by SIGTERM instead of exiting 0.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(app, signal));
  await app.listen({ port: config.port, host: config.host });
  app.get(Logger).log(listeningMessage(config));
}

/** Where a person on this machine opens the service: a wildcard address is reached as localhost. */
function listeningMessage({ host, port }: AppConfig): string {
  const everywhere = host === '0.0.0.0' || host === '::';
  const origin = `http://${everywhere ? 'localhost' : isIPv6(host) ? `[${host}]` : host}:${port}`;
  return `listening on ${origin}/api/v1 (the portal: ${origin}/portal/), ${everywhere ? 'on every interface' : `on ${host} only`}`;
}

/** Stops accepting, lets in-flight requests finish, then closes the database (EventStoreModule's shutdown hook). */
async function shutdown(app: NestFastifyApplication, signal: string): Promise<void> {
  const logger = app.get(Logger);
  logger.log(`${signal} received, shutting down`);
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    logger.error(error);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  // A folder in use, a server that cannot start or a LOG_ORIGIN not the log's is the operator's to fix: one line, no stack.
  console.error(
    error instanceof EmbeddedDatabaseError || error instanceof LogOriginMismatchError ? error.message : error,
  );
  process.exit(1);
});
