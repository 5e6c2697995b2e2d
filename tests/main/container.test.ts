import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Container } from 'inversify';
import type { McpDispatcher } from '../../src/application/mcp/dispatcher';
import { LegacyHandshake } from '../../src/application/mcp/connection-state';
import type { TerminalSessionStore } from '../../src/application/terminal/terminal-session-store';
import type { TerminalSettings } from '../../src/application/terminal/terminal-settings';
import type { FilteringProxy } from '../../src/adapters/sandbox/filtering-proxy';
import { UnconfinedLaunch } from '../../src/adapters/sandbox/unconfined-launch';
import type {
  CommandConfinement,
  ConfinedLaunch,
  ConfinementSummary,
  LaunchRequest,
} from '../../src/domain/execution/command-confinement';
import { ConfigurationError } from '../../src/domain/errors';
import { loadConfig } from '../../src/main/config';
import { buildContainer, shutdownTerminal } from '../../src/main/container';
import { buildHttpApp } from '../../src/main/http-app';
import { TYPES } from '../../src/main/types';
import { makeTempWorkspace } from '../support/workspace';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A host's confinement: runs commands unconfined, but records each launch and reports a summary of its own. */
class RecordingConfinement implements CommandConfinement {
  readonly scripts: string[] = [];
  private readonly inner = new UnconfinedLaunch();

  confine(request: LaunchRequest): ConfinedLaunch {
    this.scripts.push(request.launch.kind === 'shell' ? request.launch.script : request.launch.argv.join(' '));
    return this.inner.confine(request);
  }

  summary(): ConfinementSummary {
    return { sandbox: 'off' };
  }

  readiness(): { ready: true } {
    return { ready: true };
  }
}

async function callTool(
  container: Container,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const dispatcher = container.get<McpDispatcher>(TYPES.Dispatcher);
  const response = await dispatcher.handle(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: MODERN_META } },
    { transport: 'stdio', handshake: new LegacyHandshake() },
  );
  return (response as unknown as { result: { structuredContent: Record<string, unknown> } }).result.structuredContent;
}

/** Every identifier the server's own modules bind (the HTTP-only ones come with the HTTP app). */
const HTTP_ONLY = new Set<symbol>([TYPES.WebMounts, TYPES.ChatModel, TYPES.ReceiptHttpMounts, TYPES.ReceiptInspection]);

describe('buildContainer: the server modules, then the host overrides', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let container: Container | undefined;

  beforeEach(() => {
    workspace = makeTempWorkspace();
  });

  afterEach(async () => {
    if (container) await shutdownTerminal(container);
    container = undefined;
    workspace.remove();
  });

  test('binds every service identifier of TYPES, each a singleton; the HTTP ones only once the HTTP app is built', () => {
    const config = loadConfig({
      WORKSPACE_ROOT: workspace.root,
      LOG_LEVEL: 'error',
      TERM_MCP_SANDBOX: 'off',
      TERM_MCP_TOKEN: 'a'.repeat(40),
    });
    container = buildContainer(config);
    const built = container;
    for (const [name, id] of Object.entries(TYPES)) {
      if (HTTP_ONLY.has(id)) {
        expect([name, built.isBound(id)]).toEqual([name, false]);
        continue;
      }
      expect([name, built.isBound(id)]).toEqual([name, true]);
      expect([name, built.get(id, { optional: true }) === built.get(id, { optional: true })]).toEqual([name, true]);
    }
    buildHttpApp(built, config);
    buildHttpApp(built, config);
    for (const id of HTTP_ONLY) expect(built.get(id)).toBeDefined();
  });

  test('a confinement rebound by the host launches every command, and plans and receipts report its summary', async () => {
    const confinement = new RecordingConfinement();
    container = buildContainer(loadConfig({ WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error' }), (host) => {
      host.rebind<CommandConfinement>(TYPES.CommandConfinement).toConstantValue(confinement);
    });
    expect(container.get<TerminalSettings>(TYPES.TerminalSettings).confinement).toEqual({ sandbox: 'off' });
    const receipt = await callTool(container, 'terminal_execute', { command: 'echo rebound' });
    expect(receipt).toMatchObject({ status: 'succeeded', stdout: 'rebound\n', confinement: { sandbox: 'off' } });
    expect(confinement.scripts).toHaveLength(1);
    expect(confinement.scripts[0]).toContain('rebound');
  });

  test('reads the policy file at start-up: a bad one fails buildContainer, not the first tool call', () => {
    // Outside the workspace: start-up refuses a policy file inside it.
    const outside = makeTempWorkspace('term-mcp-policy-');
    try {
      const policy = path.join(outside.root, 'policy.json');
      writeFileSync(policy, '{"mode": "nonsense"}');
      const config = loadConfig({
        WORKSPACE_ROOT: workspace.root,
        LOG_LEVEL: 'error',
        TERM_MCP_SANDBOX: 'off',
        TERM_MCP_POLICY: policy,
      });
      expect(() => buildContainer(config)).toThrow(ConfigurationError);
    } finally {
      outside.remove();
    }
  });

  test('shutdownTerminal kills running commands, and closes sessions opened after it on the next call', async () => {
    const config = loadConfig({
      WORKSPACE_ROOT: workspace.root,
      LOG_LEVEL: 'error',
      TERM_MCP_SANDBOX: 'off',
      APPROVAL_MODE: 'trusted',
    });
    container = buildContainer(config);
    const registry = container.get<TerminalSessionStore>(TYPES.TerminalSessionStore);
    const running = await callTool(container, 'terminal_execute', { command: 'sleep 30', wait_seconds: 0 });
    expect(running).toMatchObject({ status: 'running' });
    await shutdownTerminal(container);
    expect(registry.list()).toEqual([]);

    // An embedder that goes on after close(): what it opens is closed by the next shutdown too.
    const plan = await callTool(container, 'terminal_plan', { command: 'echo again' });
    expect(registry.find(String(plan.session_id))).toBeDefined();
    await shutdownTerminal(container);
    expect(registry.list()).toEqual([]);
  });

  test('with ALLOW_NETWORK the proxy listens from start-up, and shutdownTerminal closes it (its socket is gone)', async () => {
    const config = loadConfig({ WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error', ALLOW_NETWORK: 'true' });
    container = buildContainer(config);
    const proxy = container.get<FilteringProxy | undefined>(TYPES.FilteringProxy);
    const socketPath = proxy?.socketPath;
    expect(socketPath).toBeDefined();
    expect(existsSync(String(socketPath))).toBe(true);
    expect(container.get<TerminalSettings>(TYPES.TerminalSettings).confinement).toMatchObject({
      sandbox: 'bubblewrap',
      network: 'filtered',
    });
    await shutdownTerminal(container);
    expect(existsSync(String(socketPath))).toBe(false);
  });
});
