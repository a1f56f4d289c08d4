// ts-node (hash-pool workers run from sources, the CLIs the suites spawn) caches compiled code under
// os.tmpdir() unless told otherwise; the unit project has no global set-up to move TMPDIR, so the cache goes
// beside Jest's own and a run leaves /tmp as it found it.
process.env.V8_COMPILE_CACHE_CACHE_DIR ??= require('path').join(__dirname, 'node_modules/.cache/v8-compile-cache');

/** What both projects share: TypeScript through ts-jest, in Node. */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
  // Out of /tmp, which a run leaves as it found it; beside the dependencies the transforms are made from.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};

/**
 * Two projects. `unit`: the specs beside the code in src/ and the layout's rules, which need no
 * server, so they start at once (`npm run test:unit`). `integration`: everything else in test/,
 * which opens databases, serves HTTP or drives a browser, after the global set-up has started the
 * embedded server and unpacked Chromium; Jest runs a project's global set-up only when one of its
 * tests is selected.
 */
module.exports = {
  testTimeout: 60000,
  // Jest's default on 2 cores is one worker; the suites mostly wait on child processes, browsers and sockets.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/src', '<rootDir>/test/architecture'],
    },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/architecture/'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
