import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/**/*.mjs'] },
  js.configs.recommended,
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The browser UI: plain ES modules run as they are (no build step), so only browser globals exist.
    files: ['static/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'window', 'document', 'navigator', 'sessionStorage', 'fetch', 'URL', 'Blob', 'CSS', 'Node', 'Element',
          'HTMLElement', 'ResizeObserver', 'TextDecoderStream', 'AbortController', 'setTimeout', 'clearTimeout',
        ].map((name) => [name, 'readonly']),
      ),
    },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_' }] },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [] }],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', 'fs', 'path', 'child_process', 'http', 'express', 'zod', 'inversify', 'jose'], message: 'src/domain is pure: no I/O and no frameworks.' },
        { group: ['**/application/**', '**/adapters/**', '**/main/**'], message: 'Dependencies point inward only.' },
      ] }],
    },
  },
  {
    files: ['src/application/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/adapters/**', '**/main/**', 'express', 'inversify'], message: 'Application code depends on ports, not adapters.' },
      ] }],
    },
  },
  {
    files: ['src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/main/**'], message: 'Adapters never import the composition root.' },
      ] }],
    },
  },
);
