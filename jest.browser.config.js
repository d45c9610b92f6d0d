/**
 * `npm run test:browser`: the tests that drive a real browser (test/browser), apart from
 * `npm test` because a fresh machine has no Chromium. Same DynamoDB Local set-up and
 * transform as jest.config.js; one worker, as one Chromium is enough for this machine.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/browser'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
