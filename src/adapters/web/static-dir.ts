import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Finds the package's `static/` folder by walking up from each start path (the composition root passes the file of
 * its own module, src/main/module-file.ts) to a `package.json` named `packageName` that has `static/index.html`
 * beside it. Works from `src/` under the test runner, from `dist/` and from the CLI bundle's chunks.
 */
export function locateStaticDir(
  startPaths: ReadonlyArray<string | undefined>,
  packageName: string,
): string | undefined {
  for (const start of startPaths) {
    if (start === undefined || !existsSync(start)) continue;
    const real = realpathSync(start);
    let dir = statSync(real).isDirectory() ? real : path.dirname(real);
    for (;;) {
      if (isPackageRoot(dir, packageName)) return path.join(dir, 'static');
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
}

function isPackageRoot(dir: string, packageName: string): boolean {
  const manifest = path.join(dir, 'package.json');
  if (!existsSync(manifest) || !existsSync(path.join(dir, 'static', 'index.html'))) return false;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === packageName;
  } catch {
    return false;
  }
}
