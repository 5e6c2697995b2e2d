import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../application/logging/logger.js';
import type { Config } from './config.js';

/**
 * Warns at start-up about a workspace so broad that the workspace boundary protects little: `/` (every file the
 * server's user can read is in reach of commands, and writable outside inspect) or the user's home directory (its
 * credential folders, ~/.ssh and ~/.aws among them, lie inside the workspace, where the sandbox cannot hide them).
 * Started from there by accident (a client launched in $HOME with no WORKSPACE_ROOT), the server said nothing.
 */
export function warnAboutBroadWorkspace(logger: Logger, config: Config): void {
  const problem = broadWorkspaceProblem(config.workspaceRoot, config.homeDir ?? os.homedir());
  if (problem !== undefined)
    logger.warn(problem, {
      workspace: config.workspaceRoot,
      fix: 'set WORKSPACE_ROOT (or --workspace) to the project folder',
    });
}

export function broadWorkspaceProblem(workspaceRoot: string, homeDir: string | undefined): string | undefined {
  const workspace = path.resolve(workspaceRoot);
  if (workspace === path.parse(workspace).root)
    return 'the workspace is the filesystem root: commands can reach every file this user can read';
  if (homeDir !== undefined && homeDir !== '' && workspace === path.resolve(homeDir)) {
    return 'the workspace is the home directory: its credential folders (~/.ssh, ~/.aws, ...) are inside it, where the sandbox cannot hide them';
  }
  return undefined;
}
