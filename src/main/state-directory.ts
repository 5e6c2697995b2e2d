import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigurationError } from '../domain/errors.js';
import { isAtOrBelow } from '../domain/workspace/path-containment.js';

/**
 * Where the server keeps its own state (the persistent receipt signing key): TERM_MCP_STATE_DIR, else
 * $XDG_STATE_HOME/term-mcp, else ~/.local/state/term-mcp of the user the server runs as (from the password database,
 * not $HOME, which a launcher may point anywhere). Never inside the workspace, where commands write (issue 26 item 3):
 * a configured one there stops start-up; a default one there (a workspace of `/` or of the home directory) means no
 * state is kept (undefined: receipts are signed with a key of this process, and start-up says so).
 */
export function resolveStateDirectory(
  configured: string | undefined,
  xdgStateHome: string | undefined,
  cwd: string,
  workspaceRoot: string,
): string | undefined {
  const source =
    configured !== undefined
      ? 'TERM_MCP_STATE_DIR'
      : xdgStateHome !== undefined
        ? 'XDG_STATE_HOME'
        : 'the state directory';
  const chosen =
    configured !== undefined
      ? path.resolve(cwd, configured)
      : xdgStateHome !== undefined && path.isAbsolute(xdgStateHome)
        ? path.join(xdgStateHome, 'term-mcp')
        : path.join(realHome(), '.local', 'state', 'term-mcp');
  if (configured === undefined && isInsideWorkspace(chosen, workspaceRoot)) return undefined;
  refuseInsideWorkspace(source, chosen, workspaceRoot);
  return chosen;
}

/**
 * Start-up refuses a server file inside the workspace (exit 2): a command could replace it with a link the server
 * then writes through, or read and rewrite it. Judged on the real path of the deepest part that exists.
 */
export function refuseInsideWorkspace(setting: string, file: string, workspaceRoot: string): void {
  if (isInsideWorkspace(file, workspaceRoot)) {
    throw new ConfigurationError(
      `${setting}: ${file} is inside the workspace (${workspaceRoot}); the server's own files must live outside it`,
      { setting },
    );
  }
}

function isInsideWorkspace(file: string, workspaceRoot: string): boolean {
  return isAtOrBelow(workspaceRoot, realPathOfExistingPart(file));
}

function realHome(): string {
  try {
    return os.userInfo().homedir;
  } catch {
    return os.homedir();
  }
}

function realPathOfExistingPart(target: string): string {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
