import { startHttpServer } from '../../src/main/run-http';
import { loadConfig } from '../../src/main/config';
import { terminalTools } from '../../src/application/terminal/terminal-tools';
import type { TerminalToolkit } from '../../src/application/terminal/terminal-toolkit';
import type { ToolDefinition } from '../../src/application/tools/tool-definition';
import { TYPES } from '../../src/main/types';
import { tasksFixtureTools } from './tasks-fixture-tools';

/**
 * `term-mcp http`, composed as the CLI composes it (same modules, same config from the environment), with the
 * conformance runner's tasks fixtures added to the tool catalog. Bundled and started by .ci/conformance.sh for the
 * tasks-* scenarios only; it logs `tasks fixture server listening {url}` on stderr and stops on SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const handle = await startHttpServer(config, {
    overrides: (container) => {
      container
        .rebind<ToolDefinition[]>(TYPES.Tools)
        .toResolvedValue(
          (kit: TerminalToolkit) => [...terminalTools(kit), ...tasksFixtureTools()],
          [TYPES.TerminalToolkit],
        );
    },
  });
  process.stderr.write(`${JSON.stringify({ message: 'tasks fixture server listening', url: handle.url })}\n`);
  process.once('SIGTERM', () => {
    void handle.close().then(() => process.exit(0));
  });
}

void main().catch((error: unknown) => {
  process.stderr.write(`tasks fixture server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
