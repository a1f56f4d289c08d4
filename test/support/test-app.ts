import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { createApp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { loadConfig, type AppConfig } from '../../src/platform/config/config';
import { recordRequests } from './request-recorder';
import { RUN_DRIVER, createTestDatabase, type Driver } from './test-database';

/** The ADMIN_API_KEY of every test app unless a test sets its own (an empty value unsets it). */
export const TEST_ADMIN_KEY = 'test-admin-key-0123456789abcdef';

export interface TestAppOptions {
  /** Test-only modules, controllers and providers, added beside the real AppModule. */
  imports?: ModuleMetadata['imports'];
  controllers?: ModuleMetadata['controllers'];
  providers?: ModuleMetadata['providers'];
  /** e.g. `(builder) => builder.overrideProvider(Clock).useValue(clock)` */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Environment for loadConfig, on top of the test defaults (own database, LOG_LEVEL silent, ADMIN_API_KEY TEST_ADMIN_KEY). */
  env?: Record<string, string>;
  /**
   * The server of the app's own database, unless `env` names a DATABASE_URL: default the run's one
   * server, DATABASE_URL's when it is set, else the run's embedded server. The embedded server the
   * service starts for itself is the e2e tier's to test, in service processes.
   */
  driver?: Driver;
}

export interface TestApp {
  /** Ends in /api/v1, without a trailing slash. */
  baseUrl: string;
  app: NestFastifyApplication;
  config: AppConfig;
  /** Closes the app (and its database connection), then drops the test's database. */
  close(): Promise<void>;
}

/**
 * The real service, built by the same `createApp` as main.ts, listening on a free port of 127.0.0.1
 * with a database of its own on the run's server.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDb = options.env?.DATABASE_URL ? undefined : await createTestDatabase(options.driver ?? RUN_DRIVER);
  const dataDir = await mkdtemp(join(tmpdir(), 'crcs-e2e-'));
  const cleanUp = async () => {
    await testDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      ...(testDb && { DATABASE_URL: testDb.url }),
      ...options.env,
    });
    const builder = Test.createTestingModule({
      imports: [AppModule.forRoot(config), ...(options.imports ?? [])],
      controllers: options.controllers,
      providers: options.providers,
    });
    const app = await createApp(config, await (options.override?.(builder) ?? builder).compile());
    // Set only to regenerate test/invalid-requests/'s fixture (its README says how).
    if (process.env.CRCS_RECORD_REQUESTS) recordRequests(app, process.env.CRCS_RECORD_REQUESTS);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      app,
      config,
      close: async () => {
        await app.close();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
