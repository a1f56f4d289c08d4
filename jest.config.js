// ts-node (the examples the e2e tier runs as a user does) caches compiled code under os.tmpdir() unless told
// otherwise: the cache goes beside Jest's own, and a run leaves /tmp as it found it.
process.env.V8_COMPILE_CACHE_CACHE_DIR ??= require('path').join(__dirname, 'node_modules/.cache/v8-compile-cache');

/** What every tier shares: TypeScript through ts-jest, in Node. */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Out of /tmp, which a run leaves as it found it; beside the dependencies the transforms are made from.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};

/**
 * Three tiers, named by file (`npm run test:unit`, `test:int`, `test:e2e`; Jest runs a project's
 * global set-up only when one of its tests is selected):
 * - `unit`: `src/**\/*.spec.ts` and the log package's `packages/tlog/src/**\/*.spec.ts`, beside the code: no I/O, no network, no child process, so they start at once.
 * - `int`: `test/**\/*.int-spec.ts`: one PostgreSQL server per run (DATABASE_URL's, else an embedded one),
 *   a database per test cloned from a migrated template, the service in-process over real HTTP.
 * - `e2e`: `test/**\/*.e2e-spec.ts`: the service as a process (crashes, restarts, two processes), its
 *   embedded server's own behaviour, the replica, the browser, the Go interop, the README's tour, on
 *   the run's embedded server and DATABASE_URL's when it is set; and the log package's own system test,
 *   `packages/tlog/test/*.e2e-spec.ts` (its formats checked by Go's, no service).
 */
module.exports = {
  // A ceiling for a loaded machine, not a budget: the tests wait on conditions.
  testTimeout: 120000,
  // Jest's default on 2 cores is one worker; the suites mostly wait on child processes, browsers and sockets.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/src', '<rootDir>/packages/tlog/src'],
      testRegex: '\\.spec\\.ts$',
    },
    {
      ...shared,
      displayName: 'int',
      roots: ['<rootDir>/test'],
      testRegex: '\\.int-spec\\.ts$',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'e2e',
      roots: ['<rootDir>/test', '<rootDir>/packages/tlog/test'],
      testRegex: '\\.e2e-spec\\.ts$',
      globalSetup: '<rootDir>/test/support/e2e-global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
