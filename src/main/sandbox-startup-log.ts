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
    logger.error('command sandbox unavailable: every command will be refused (sandbox_unavailable)', { reason: readiness.reason, fix: readiness.fix });
    return;
  }
  const { notHidden } = hiddenPaths(config);
  if (notHidden.length > 0) logger.warn('these paths hold the workspace, so the sandbox cannot hide them', { paths: notHidden });
  logger.info('command sandbox ready', { ...confinement.summary() });
}
