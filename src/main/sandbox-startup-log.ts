import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import type { Config } from './config.js';
import { hiddenPaths } from './sandbox-setup.js';
import { TYPES } from './types.js';

/**
 * Says at start-up what commands will run in: the opt-out is loud, and a sandbox that cannot start is reported now
 * (every command would be refused with sandbox_unavailable) rather than at the first command.
 */
export function logSandboxState(logger: Logger, config: Config, container: Container): void {
  if (!config.sandboxEnabled) {
    logger.warn('TERM_MCP_SANDBOX=off: commands run WITHOUT the OS sandbox; only the policy confines them');
    return;
  }
  const confinement = container.get<CommandConfinement>(TYPES.CommandConfinement);
  const readiness = confinement.readiness();
  if (!readiness.ready) {
    logger.error('command sandbox unavailable: every command will be refused (sandbox_unavailable)', {
      reason: readiness.reason,
      fix: readiness.fix,
    });
    return;
  }
  const { notHidden } = hiddenPaths(config);
  if (notHidden.length > 0) {
    // The sandbox hides the server's own files (its installation, policy file, audit log) and credential folders
    // from commands. A path that contains the workspace cannot be hidden without hiding the workspace too.
    logger.warn('the sandbox cannot hide these paths from commands: they contain the workspace', {
      paths: notHidden,
      why: "commands can read them (a workspace inside term-mcp's own folder exposes its code, a workspace inside ~/.ssh its keys)",
      fix: 'use a workspace outside these paths, e.g. your project folder rather than the term-mcp clone',
    });
  }
  logger.info('command sandbox ready', { ...confinement.summary() });
}
