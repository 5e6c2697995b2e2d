import path from 'node:path';
import { locateStaticDir } from '../adapters/web/static-dir.js';
import { MODULE_FILE } from './module-file.js';

/** The npm package whose `static/` folder holds the UI. */
export const PACKAGE_NAME = 'term-mcp';

/**
 * The installed package's `static/` folder, found from this code's own file (never the host's script or working
 * directory: a host app embedding term-mcp has neither inside the package). Undefined when the files are missing.
 */
export function packageStaticDir(): string | undefined {
  return locateStaticDir([MODULE_FILE], PACKAGE_NAME);
}

/** The package root (where static/ is): the server's own code and its dependencies. */
export function installationDirectory(): string | undefined {
  const staticDir = packageStaticDir();
  return staticDir === undefined ? undefined : path.dirname(staticDir);
}
