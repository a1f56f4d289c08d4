module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 60000,
  // Jest's default on 2 cores is one worker; the suites mostly wait on child processes, browsers and sockets.
  maxWorkers: 2,
  // Out of /tmp, which a run leaves as it found it; beside the dependencies the transforms are made from.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
