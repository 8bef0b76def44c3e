/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/native-host', '<rootDir>/test', '<rootDir>/bench'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  },
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 30000,
};
