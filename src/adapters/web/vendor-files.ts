import { createRequire } from 'node:module';
import path from 'node:path';

/** The browser files the UI loads from `/vendor/<name>`: xterm.js and its fit addon, straight from their packages. */
export type VendorFiles = Readonly<Record<string, string>>;

/**
 * Resolves the vendored browser files with Node's own resolution, starting at the package root that holds
 * `static/` (so a hoisted install in a host app's `node_modules` is found too). No CDN, no copy at build time:
 * the versions served are the ones `package.json` pins. Undefined when a package is missing.
 */
export function locateVendorFiles(packageRoot: string): VendorFiles | undefined {
  const require = createRequire(path.join(packageRoot, 'package.json'));
  try {
    const xterm = path.dirname(require.resolve('@xterm/xterm/package.json'));
    const fit = path.dirname(require.resolve('@xterm/addon-fit/package.json'));
    return Object.freeze({
      'xterm.mjs': path.join(xterm, 'lib', 'xterm.mjs'),
      'xterm.css': path.join(xterm, 'css', 'xterm.css'),
      'addon-fit.mjs': path.join(fit, 'lib', 'addon-fit.mjs'),
    });
  } catch {
    return undefined;
  }
}
