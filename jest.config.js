/**
 * One DynamoDB Local serves the whole run (test/support/global-setup.ts);
 * tests isolate themselves with unique ids, never by restarting it.
 * @swc/jest transpiles TypeScript and the ESM-only dependencies (middy, jose)
 * to CommonJS; type-checking is `tsc --noEmit`, run first by `npm test`.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|jose)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 30000,
};
