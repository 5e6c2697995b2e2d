import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  ...tseslint.configs.recommended,
  {
    // Node scripts and benchmarks: plain ES modules run by node.
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'setImmediate',
          'URL',
          'fetch',
          'AbortController',
          'AbortSignal',
          'Buffer',
          'performance',
          'TextDecoder',
          'TextEncoder',
          'structuredClone',
          'queueMicrotask',
        ].map((name) => [name, 'readonly']),
      ),
    },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  {
    // The benchmarks: plain Node ES modules run as they are.
    files: ['bench/**/*.mjs'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'Buffer',
          'URL',
          'fetch',
          'AbortController',
          'AbortSignal',
          'TextEncoder',
          'TextDecoder',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'setImmediate',
          'queueMicrotask',
          'globalThis',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // The browser UI: plain ES modules run as they are (no build step), so only browser globals exist.
    files: ['static/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'navigator',
          'sessionStorage',
          'fetch',
          'URL',
          'Blob',
          'CSS',
          'Node',
          'Element',
          'HTMLElement',
          'ResizeObserver',
          'TextDecoderStream',
          'AbortController',
          'setTimeout',
          'clearTimeout',
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
    // Type-aware rules: a promise nobody awaits or catches, a promise where a callback's return is ignored (an Express
    // handler, an event listener), and a switch over a union that forgets a member are bugs tsc alone does not see.
    files: ['src/**/*.ts', 'tests/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    // Configuration is read once, in src/main (config.ts), and handed down; nothing else reads the environment.
    files: ['src/domain/**/*.ts', 'src/application/**/*.ts', 'src/adapters/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Only src/main reads process.env: take the value as an option.',
        },
      ],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'child_process', 'http', 'express', 'zod', 'inversify', 'jose'],
              message: 'src/domain is pure: no I/O and no frameworks.',
            },
            {
              group: ['**/application/**', '**/adapters/**', '**/main/**', '**/index.js'],
              message: 'Dependencies point inward only: the domain imports nothing of ours outside src/domain.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/application/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/adapters/**', '**/main/**', 'express', 'inversify'],
              message: 'Application code depends on ports, not adapters.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shell reading knows nothing of the policy that judges what it reads (docs/architecture.md).
    files: ['src/application/shell/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/adapters/**', '**/main/**', 'express', 'inversify'],
              message: 'Application code depends on ports, not adapters.',
            },
            {
              group: ['**/application/policy/**', '../policy/**'],
              message: 'The shell reading never imports the policy: the policy reads the shell.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/main/**'], message: 'Adapters never import the composition root.' },
            // Every adapter sits one folder deep (src/adapters/<name>/), so `../<name>/` is always another adapter.
            {
              regex: '^\\.\\./(?!\\.\\./)[^/]+/',
              message: 'An adapter never imports another adapter: share through application or domain.',
            },
          ],
        },
      ],
    },
  },
);
