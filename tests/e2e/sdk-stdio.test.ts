import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectSdkOverStdio, type Era } from '../support/sdk-client';
import { CLI_PATH, makeTempWorkspace } from '../support/workspace';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The official MCP TypeScript SDK client (2.4.0) against the real `term-mcp stdio`, in both eras. */
describe.each<Era>(['legacy', 'modern'])('official SDK client over stdio (%s era)', (era) => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let client: Client;

  beforeEach(async () => {
    workspace = makeTempWorkspace();
    writeFileSync(path.join(workspace.root, 'hello.txt'), 'hello from the workspace\n');
    ({ client } = await connectSdkOverStdio(era, { WORKSPACE_ROOT: workspace.root }));
  });

  afterEach(async () => {
    await client.close();
    workspace.remove();
  });

  test('negotiates the expected protocol version', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    expect(client.getProtocolEra()).toBe(era);
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
      // server/discover advertises the tasks extension to modern clients; initialize does not (docs/tools.md).
      ...(era === 'modern' ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {}),
    });
  });

  test('lists tools, resources, resource templates and prompts', async () => {
    const tools = await client.listTools();
    expect(Array.isArray(tools.tools)).toBe(true);
    const resources = await client.listResources();
    expect(resources.resources.map((resource) => resource.name)).toContain('hello.txt');
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.length).toBeGreaterThan(0);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual(['safe_terminal_task']);
  });
});

test('the SDK client in auto mode discovers the modern era over stdio', async () => {
  const workspace = makeTempWorkspace();
  const client = new Client({ name: 'term-mcp-tests', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'stdio'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WORKSPACE_ROOT: workspace.root },
    stderr: 'pipe',
  });
  try {
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getDiscoverResult()?.supportedVersions).toContain('2025-11-25');
  } finally {
    await client.close();
    workspace.remove();
  }
});
