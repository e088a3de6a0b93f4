// Jest runs TypeScript through SWC (TypeScript 7 has no JS API for ts-jest).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'jsdom',
      // Generous: CI machines are shared, and a test that starts DuckDB or renders a chart is slow on a busy one.
      testTimeout: 30_000,
      roots: ['<rootDir>/src', '<rootDir>/test'],
      testMatch: ['**/*.test.ts?(x)'],
      transform: { '^.+\\.(t|j)sx?$': swc },
      moduleNameMapper: { '\\.css$': '<rootDir>/test/styleMock.js' },
      setupFilesAfterEnv: ['<rootDir>/test/setupDom.ts'],
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      // Every server test drives a real database (PGlite in-process or PostgreSQL); on a loaded 2-core machine a
      // sign-in flow of a dozen requests has taken over 20 s.
      testTimeout: 60_000,
      roots: ['<rootDir>/server'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.(t|j)sx?$': swc },
      // Jest's module system cannot require ES modules; these dependencies ship only ESM.
      transformIgnorePatterns: ['/node_modules/(?!(.*/node_modules/)?(cookie|jose|content-disposition)/)'],
    },
  ],
};
