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
  // Generous, and global (Jest reads no per-project timeout): CI machines are shared, server tests drive a real
  // database and unit tests start DuckDB; on a loaded 2-core machine a sign-in flow has taken over 20 s.
  testTimeout: 120_000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/src', '<rootDir>/test'],
      testMatch: ['**/*.test.ts?(x)'],
      transform: { '^.+\\.(t|j)sx?$': swc },
      moduleNameMapper: {
        '\\.css(\\?.*)?$': '<rootDir>/test/styleMock.js',
        // Blueprint's per-icon path modules: the ES build for webpack, the CommonJS twin under Jest.
        '^@blueprintjs/icons/lib/esm/(.*)$': '@blueprintjs/icons/lib/cjs/$1',
      },
      setupFilesAfterEnv: ['<rootDir>/test/setupDom.ts'],
    },
    {
      displayName: 'server',
      // Node's environment, whose timers end with each test file (see the file).
      testEnvironment: '<rootDir>/test/nodeEnvironment.js',
      roots: ['<rootDir>/server'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.(t|j)sx?$': swc },
      // Jest's module system cannot require ES modules; these dependencies ship only ESM.
      transformIgnorePatterns: ['/node_modules/(?!(.*/node_modules/)?(cookie|jose|content-disposition)/)'],
    },
  ],
};
