import { fileURLToPath } from 'node:url';

/**
 * The path of the JavaScript file this module was loaded from: `dist/main/module-file.js` for the library, or the
 * CLI bundle's chunk that holds it (scripts/bundle.mjs). Either lies inside the installed package, so walking up from
 * it finds the package's own `static/`, wherever the host's script or working directory is (issue 23).
 * Jest runs CommonJS, where `import.meta` is a syntax error: jest.config.cjs maps this module to
 * tests/support/module-file.ts.
 */
export const MODULE_FILE: string = fileURLToPath(import.meta.url);
