import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTermMcp, TYPES, type PolicyDecision, type PolicyEngine, type TermMcp } from '../../src/index';
import { makeTempWorkspace } from '../support/workspace';

const TOKEN = 'embedding-test-token-that-is-longer-than-32-chars';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A host app's own policy: denies everything, to prove the container uses the supplied port. */
class DenyEverything implements PolicyEngine {
  evaluate(): PolicyDecision {
    return {
      verdict: 'deny',
      risk: 'blocked',
      reasons: ['the host application denies every command'],
      matchedRule: 'host_policy',
      parts: [],
      preview: { executable: null, filesPotentiallyTouched: [], networkRequested: false, executesProjectCode: false },
    };
  }
}

describe('createTermMcp: embedding in another Node app', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let termMcp: TermMcp;

  beforeEach(() => {
    workspace = makeTempWorkspace();
    writeFileSync(path.join(workspace.root, 'notes.md'), '# notes\n');
  });

  afterEach(async () => {
    await termMcp?.close();
    workspace.remove();
  });

  test('handles modern requests in-process with the real dispatcher', async () => {
    termMcp = createTermMcp({ env: { WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error' } });
    const response = await termMcp.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/list',
      params: { _meta: MODERN_META },
    });
    expect(response).toMatchObject({
      id: 1,
      result: { resources: [{ uri: 'workspace:///notes.md', name: 'notes.md' }], resultType: 'complete' },
    });
  });

  test('uses a PolicyEngine supplied by the host through the container', async () => {
    termMcp = createTermMcp({
      env: { WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error' },
      overrides: (container) => {
        container.rebind<PolicyEngine>(TYPES.PolicyEngine).toConstantValue(new DenyEverything());
      },
    });
    const response = await termMcp.handle({
      jsonrpc: '2.0',
      id: 'plan',
      method: 'tools/call',
      params: { name: 'terminal_plan', arguments: { command: 'ls' }, _meta: MODERN_META },
    });
    const plan = (
      response as unknown as { result: { structuredContent: { status: string; policy: { reasons: string[] } } } }
    ).result.structuredContent;
    expect(plan.status).toBe('blocked');
    expect(plan.policy.reasons).toEqual(['the host application denies every command']);
  });

  test('uses the PolicyEngine a host passes as a typed port', async () => {
    termMcp = createTermMcp({
      env: { WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error' },
      ports: { policyEngine: new DenyEverything() },
    });
    const response = await termMcp.handle({
      jsonrpc: '2.0',
      id: 'plan',
      method: 'tools/call',
      params: { name: 'terminal_plan', arguments: { command: 'ls' }, _meta: MODERN_META },
    });
    const plan = (
      response as unknown as { result: { structuredContent: { status: string; policy: { reasons: string[] } } } }
    ).result.structuredContent;
    expect(plan.status).toBe('blocked');
    expect(plan.policy.reasons).toEqual(['the host application denies every command']);
  });

  test('mounts the HTTP app under a prefix of a host Express app, next to the host routes', async () => {
    termMcp = createTermMcp({ env: { WORKSPACE_ROOT: workspace.root, TERM_MCP_TOKEN: TOKEN, LOG_LEVEL: 'error' } });
    const host = express();
    host.get('/host-route', (_req, res) => {
      res.json({ host: true });
    });
    host.use('/terminal', termMcp.httpApp());
    const server: Server = createServer(host);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new Client(
      { name: 'host-app', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    try {
      expect(await (await fetch(`${base}/host-route`)).json()).toEqual({ host: true });
      expect((await fetch(`${base}/terminal/mcp`, { method: 'POST' })).status).toBe(401);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/terminal/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        }),
      );
      const result = await client.callTool({ name: 'terminal_execute', arguments: { command: 'echo embedded' } });
      expect(result.isError).toBe(false);
      expect((result.structuredContent as { stdout: string }).stdout).toBe('embedded\n');
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('refuses to build the HTTP app without a token or JWT configuration', () => {
    termMcp = createTermMcp({ env: { WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error' } });
    expect(() => termMcp.httpApp()).toThrow(/TERM_MCP_TOKEN/);
  });

  test('serves STDIO on streams the host provides', async () => {
    termMcp = createTermMcp({ env: { WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error' } });
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => {
      written += chunk.toString('utf8');
    });
    const served = termMcp.serveStdio({ input, output });
    input.end(
      `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: MODERN_META } })}\n`,
    );
    await served;
    expect(JSON.parse(written.trim())).toMatchObject({
      id: 7,
      result: { supportedVersions: expect.arrayContaining(['2026-07-28']) },
    });
  });

  test('reads nothing from process.env unless given it', () => {
    process.env.APPROVAL_MODE = 'trusted';
    try {
      termMcp = createTermMcp({ env: { WORKSPACE_ROOT: workspace.root } });
      expect(termMcp.config.policyMode).toBeUndefined();
    } finally {
      delete process.env.APPROVAL_MODE;
    }
  });
});
