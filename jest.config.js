/** What both projects share: TypeScript through ts-jest, in Node. */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
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
