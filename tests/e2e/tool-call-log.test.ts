import { StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

const SECRET = 'stdio-token-that-is-longer-than-thirty-two-chars';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function toolCallLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === 'tool call');
}

/** The built `term-mcp stdio`: one JSON line per tool call on stderr, secrets removed, turned off by LOG_LEVEL=warn. */
describe('the log line of each tool call (real server over STDIO)', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let peer: StdioPeer | undefined;

  beforeEach(() => {
    workspace = makeTempWorkspace();
  });

  afterEach(async () => {
    if (peer && peer.child.exitCode === null) await peer.end();
    peer = undefined;
    workspace.remove();
  });

  const call = (server: StdioPeer, id: number, name: string, args: Record<string, unknown>) =>
    server.request({ id, method: 'tools/call', params: { _meta: META, name, arguments: args } }, 30_000);

  test('says which tool ran what, with verdict, rule, exit and duration, and never the secrets', async () => {
    const server = new StdioPeer({ WORKSPACE_ROOT: workspace.root, TERM_MCP_TOKEN: SECRET, LOG_LEVEL: 'info' });
    peer = server;
    await call(server, 1, 'terminal_execute', { command: `echo ${SECRET} password=hunter22` });
    await call(server, 2, 'terminal_execute', { command: 'rm -rf /' });
    expect(await server.end()).toBe(0);
    expect(toolCallLines(server.stderr)).toEqual([
      expect.objectContaining({
        level: 'info',
        tool: 'terminal_execute',
        verdict: 'allow',
        rule: expect.any(String),
        status: 'succeeded',
        exit: 0,
        duration_ms: expect.any(Number),
        command: 'echo [REDACTED] password=[REDACTED]',
      }),
      expect.objectContaining({
        level: 'info',
        tool: 'terminal_execute',
        is_error: true,
        error: 'policy_denied',
        command: 'rm -rf /',
      }),
    ]);
    expect(server.stderr).not.toContain(SECRET);
    expect(server.stderr).not.toContain('hunter22');
  });

  test('LOG_LEVEL=warn turns the lines off', async () => {
    const server = new StdioPeer({ WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'warn' });
    peer = server;
    const reply = await call(server, 1, 'terminal_execute', { command: 'echo quiet' });
    expect(reply.result).toMatchObject({ isError: false });
    expect(await server.end()).toBe(0);
    expect(toolCallLines(server.stderr)).toEqual([]);
  });
});
