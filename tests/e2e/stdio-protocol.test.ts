import { MODERN_META, modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/*
 * The seed's error contract, row by row, over a real `term-mcp stdio` child speaking raw JSON-RPC lines.
 * Modern (2026-07-28) requests are stateless, so the tests that send only those share one server; each test looks
 * only at the answers that arrived after it started (`since`). Tests that drive the legacy handshake, which is per
 * STDIO connection, or that end the process, get a server of their own.
 */
describe('term-mcp stdio: protocol core, stateless requests on one shared server', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let peer: StdioPeer;

  beforeAll(() => {
    workspace = makeTempWorkspace();
    peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root });
  });

  afterAll(async () => {
    peer.kill();
    await peer.exited;
    workspace.remove();
  });

  test('answers a malformed line with -32700 and keeps serving', async () => {
    const since = peer.messages.length;
    peer.sendRaw('{not json\n');
    const parseError = await peer.waitFor((m) => m.error?.code === -32700, undefined, since);
    expect(parseError).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    const discover = await peer.request(modern('server/discover', 'after-garbage'));
    expect(discover.result?.supportedVersions).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  });

  test('rejects a batch and a request with a null id as invalid requests (-32600)', async () => {
    const since = peer.messages.length;
    peer.send([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    const batch = await peer.waitFor((m) => m.error?.code === -32600, undefined, since);
    expect(batch.id).toBeNull();
    expect(batch.error?.message).toMatch(/batch/i);
    peer.send({ jsonrpc: '2.0', id: null, method: 'tools/list', params: { _meta: MODERN_META } });
    await peer.waitFor((m) => m.error?.code === -32600 && m.error.message.includes('id'), undefined, since);
    peer.send({ jsonrpc: '1.0', id: 7, method: 'tools/list' });
    const wrongVersion = await peer.waitFor((m) => m.id === 7, undefined, since);
    expect(wrongVersion.error?.code).toBe(-32600);
  });

  test('serves server/discover with versions, capabilities, instructions and cache hints', async () => {
    const response = await peer.request(modern('server/discover', 'd1'));
    expect(response.result).toEqual({
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: false, listChanged: false },
        prompts: { listChanged: false },
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
      instructions: expect.stringContaining('terminal_plan'),
      resultType: 'complete',
      ttlMs: 3_600_000,
      cacheScope: 'private',
      _meta: {
        'io.modelcontextprotocol/serverInfo': expect.objectContaining({
          name: 'term-mcp',
          version: expect.any(String),
        }),
      },
    });
  });

  test('modern list results carry resultType, ttlMs, cacheScope and serverInfo', async () => {
    for (const [method, key] of [
      ['tools/list', 'tools'],
      ['prompts/list', 'prompts'],
      ['resources/list', 'resources'],
      ['resources/templates/list', 'resourceTemplates'],
    ] as const) {
      const response = await peer.request(modern(method, method));
      expect(response.error).toBeUndefined();
      expect(Array.isArray(response.result?.[key])).toBe(true);
      expect(response.result).toMatchObject({
        resultType: 'complete',
        cacheScope: 'private',
        ttlMs: expect.any(Number),
      });
      expect(response.result?._meta).toHaveProperty(['io.modelcontextprotocol/serverInfo']);
    }
  });

  test('a modern request without required metadata gets -32602', async () => {
    const noCapabilities = await peer.request({
      id: 'm1',
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    expect(noCapabilities.error?.code).toBe(-32602);
    expect(noCapabilities.error?.message).toContain('clientCapabilities');
    const noMeta = await peer.request({ id: 'm2', method: 'tools/list', params: {} });
    expect(noMeta.error?.code).toBe(-32602);
    expect(noMeta.error?.message).toContain('io.modelcontextprotocol/protocolVersion');
  });

  test('an unsupported version gets -32022 with supported and requested', async () => {
    const response = await peer.request({
      id: 'v1',
      method: 'tools/list',
      params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
    });
    expect(response.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '1900-01-01' },
    });
    const legacyInMeta = await peer.request({
      id: 'v2',
      method: 'server/discover',
      params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
    });
    expect(legacyInMeta.error?.code).toBe(-32022);
    expect(legacyInMeta.error?.message).toMatch(/initialize/);
  });

  test('an unknown modern method gets -32601, and so do legacy-only methods in the modern era', async () => {
    const unknown = await peer.request(modern('tools/frobnicate', 'u1'));
    expect(unknown.error).toEqual({ code: -32601, message: 'Method not found', data: { method: 'tools/frobnicate' } });
    const ping = await peer.request(modern('ping', 'u2'));
    expect(ping.error?.code).toBe(-32601);
    const initializeWithMeta = await peer.request(modern('initialize', 'u3'));
    expect(initializeWithMeta.error?.code).toBe(-32601);
  });

  test('an invalid cursor gets -32602', async () => {
    const response = await peer.request(modern('tools/list', 'c1', { cursor: 'not-a-cursor' }));
    expect(response.error?.code).toBe(-32602);
    expect(response.error?.message).toMatch(/cursor/i);
  });

  test('an unknown tool gets -32602', async () => {
    const response = await peer.request(modern('tools/call', 't1', { name: 'no_such_tool', arguments: {} }));
    expect(response.error?.code).toBe(-32602);
    expect(response.error?.message).toBe('Unknown tool: no_such_tool');
  });

  test('notifications get no response', async () => {
    const since = peer.messages.length;
    peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nothing' } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/unknown_thing' });
    const marker = await peer.request(modern('server/discover', 'marker'));
    expect(marker.result).toBeDefined();
    expect(peer.messages.slice(since)).toHaveLength(1);
  });

  test('handles many requests in flight; every answer keeps its id', async () => {
    const since = peer.messages.length;
    const ids = Array.from({ length: 64 }, (_, index) => `req-${index}`);
    for (const id of ids)
      peer.send({ jsonrpc: '2.0', ...modern(id.endsWith('3') ? 'prompts/list' : 'tools/list', id) });
    for (const id of ids) {
      const response = await peer.waitFor((m) => m.id === id, undefined, since);
      expect(response.result?.[id.endsWith('3') ? 'prompts' : 'tools']).toBeDefined();
    }
    expect(peer.messages.slice(since)).toHaveLength(64);
  });

  test('a line over the size limit gets -32600 and the server keeps serving', async () => {
    const since = peer.messages.length;
    peer.sendRaw(
      `{"jsonrpc":"2.0","id":"big","method":"tools/list","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}\n`,
    );
    const oversized = await peer.waitFor((m) => m.error?.code === -32600, undefined, since);
    expect(oversized.error?.message).toMatch(/size/);
    const after = await peer.request(modern('server/discover', 'after-big'));
    expect(after.result).toBeDefined();
  });

  test('the shared server wrote nothing but protocol messages on stdout and never sent an answer twice', () => {
    expect(peer.strayStdout).toEqual([]);
    const ids = peer.messages.map((message) => message.id).filter((id) => id !== null && id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('term-mcp stdio: protocol core, a server per test (legacy handshake, end of input)', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let peer: StdioPeer;

  beforeEach(() => {
    workspace = makeTempWorkspace();
    peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root });
  });

  afterEach(async () => {
    peer.kill();
    await peer.exited;
    workspace.remove();
  });

  test('legacy requests before initialization are rejected; the handshake then serves them', async () => {
    const early = await peer.request({ id: 'early', method: 'tools/list' });
    expect(early.error?.code).toBe(-32602);
    const init = await peer.request({
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.result).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: false, listChanged: false },
        prompts: { listChanged: false },
      },
      serverInfo: { name: 'term-mcp' },
    });
    expect(init.result).not.toHaveProperty('resultType');
    const beforeInitialized = await peer.request({ id: 'between', method: 'tools/list' });
    expect(beforeInitialized.error?.code).toBe(-32600);
    peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const list = await peer.request({ id: 'after', method: 'tools/list' });
    expect(list.error).toBeUndefined();
    expect(list.result).toHaveProperty('tools');
    expect(list.result).not.toHaveProperty('resultType');
    const ping = await peer.request({ id: 'ping', method: 'ping' });
    expect(ping.result).toEqual({});
    const discoverWithoutMeta = await peer.request({ id: 'legacy-discover', method: 'server/discover' });
    expect(discoverWithoutMeta.error?.code).toBe(-32601);
    const modernStillWorks = await peer.request(modern('tools/list', 'modern-in-legacy'));
    expect(modernStillWorks.result?.resultType).toBe('complete');
  });

  test.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2024-01-01', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
  ])('initialize asking for %s is answered with %s', async (requested, answered) => {
    const init = await peer.request({
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: requested, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.result?.protocolVersion).toBe(answered);
  });

  test('initialize with malformed params gets -32602, a second initialize gets -32600', async () => {
    const bad = await peer.request({ id: 'bad', method: 'initialize', params: { protocolVersion: 5 } });
    expect(bad.error?.code).toBe(-32602);
    const ok = await peer.request({
      id: 'ok',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(ok.result?.protocolVersion).toBe('2025-11-25');
    const again = await peer.request({
      id: 'again',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(again.error?.code).toBe(-32600);
  });

  test('writes nothing but protocol messages on stdout, diagnostics on stderr, and exits 0 on EOF after answering', async () => {
    peer.send({ jsonrpc: '2.0', ...modern('server/discover', 'last') });
    const code = await peer.end();
    expect(code).toBe(0);
    expect(peer.messages.map((m) => m.id)).toEqual(['last']);
    expect(peer.strayStdout).toEqual([]);
    expect(peer.stderr).toContain('"level":"info"');
  });
});

describe('term-mcp stdio: start-up configuration', () => {
  test('a WORKSPACE_ROOT that does not exist fails start-up with a message naming it', async () => {
    const peer = new StdioPeer({ WORKSPACE_ROOT: '/nonexistent/term-mcp-workspace' });
    const code = await peer.exited;
    expect(code).toBe(2);
    expect(peer.stderr).toContain('WORKSPACE_ROOT');
    expect(peer.stderr).toContain('/nonexistent/term-mcp-workspace');
  });

  test('a bad numeric setting names its variable', async () => {
    const workspace = makeTempWorkspace();
    try {
      const peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, COMMAND_TIMEOUT: 'soon' });
      expect(await peer.exited).toBe(2);
      expect(peer.stderr).toContain('COMMAND_TIMEOUT');
    } finally {
      workspace.remove();
    }
  });
});
