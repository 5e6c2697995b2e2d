import type { Logger } from '../application/logging/logger.js';
import type { McpDispatcher } from '../application/mcp/dispatcher.js';
import { serveStdio } from '../adapters/stdio/stdio-server.js';
import type { Config } from './config.js';
import { warnAboutSeedSettings } from './seed-settings-warning.js';
import { warnAboutBroadWorkspace } from './workspace-warning.js';
import { logSandboxState } from './sandbox-startup-log.js';
import { buildContainer, shutdownTerminal } from './container.js';
import { TYPES } from './types.js';

/** `term-mcp stdio`: serves until stdin ends, then closes every execution session (no orphan survives) and exits 0. */
export async function runStdio(config: Config): Promise<number> {
  const container = buildContainer(config);
  const logger = container.get<Logger>(TYPES.Logger);
  const dispatcher = container.get<McpDispatcher>(TYPES.Dispatcher);
  const stop = async (signal: string): Promise<void> => {
    logger.info('stopping', { signal });
    await shutdownTerminal(container);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  warnAboutSeedSettings(logger, config);
  warnAboutBroadWorkspace(logger, config);
  logSandboxState(logger, config, container);
  logger.info('term-mcp stdio ready', { workspace: config.workspaceRoot });
  await serveStdio({ input: process.stdin, output: process.stdout, handler: dispatcher, logger });
  await shutdownTerminal(container);
  logger.info('stdin closed; exiting');
  return 0;
}
