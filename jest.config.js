/**
 * One DynamoDB Local serves the whole run (test/support/global-setup.ts);
 * tests isolate themselves with unique ids, never by restarting it.
 * test/support/esbuild-jest-transform.js turns TypeScript and the ESM-only dependencies
 * (middy, jose) into CommonJS; type-checking is `tsc --noEmit`, run first by `npm test`.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Real-browser tests need Chromium: `npm run test:browser` (jest.browser.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/browser/'],
  transform: {
    '^.+\\.(t|j)s$': '<rootDir>/test/support/esbuild-jest-transform.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|jose|oauth4webapi)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Behaviour IAM-3: every DynamoDB request a route sends is checked against its row's declared storage access.
  setupFilesAfterEnv: ['<rootDir>/test/support/record-storage-access.ts'],
  reporters: ['default', '<rootDir>/test/support/storage-access-reporter.js'],
  maxWorkers: 2,
  testTimeout: 30000,
};
