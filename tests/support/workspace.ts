import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A real temporary workspace directory; `remove()` deletes it. */
export function makeTempWorkspace(prefix = 'term-mcp-ws-'): { root: string; remove(): void } {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** The built CLI (`npm test` builds before jest runs). */
export const CLI_PATH = path.join(REPO_ROOT, 'dist', 'main', 'cli.js');
