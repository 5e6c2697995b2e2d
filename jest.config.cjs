/** Jest runs the TypeScript sources through ts-jest (transpile only; `npm run typecheck` does the type checking).
 * jose and inversify ship ESM only, so they are transformed too (Jest's CJS mode cannot require(esm) on Node 20). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|inversify|@inversifyjs)/)'],
  // src/main/module-file.ts reads import.meta.url, a syntax error in CommonJS: tests use a stand-in inside the repo.
  moduleNameMapper: {
    '^\\./module-file(\\.js)?$': '<rootDir>/tests/support/module-file.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30000,
  maxWorkers: 2,
};
