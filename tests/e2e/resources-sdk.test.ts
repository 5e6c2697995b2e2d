import type { Client } from '@modelcontextprotocol/client';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectSdkOverStdio, type Era } from '../support/sdk-client';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

const SECRET = 'SECRET-OUTSIDE-THE-WORKSPACE';

/** `<parent>/ws` is the workspace; `<parent>/secret.txt` and the prefix sibling `<parent>/ws-evil/secret.txt` are not. */
function hostileLayout(): { parent: ReturnType<typeof makeTempWorkspace>; root: string } {
  const parent = makeTempWorkspace('term-mcp-res-');
  const root = path.join(parent.root, 'ws');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  mkdirSync(path.join(parent.root, 'ws-evil'));
  writeFileSync(path.join(parent.root, 'secret.txt'), SECRET);
  writeFileSync(path.join(parent.root, 'ws-evil', 'secret.txt'), SECRET);
  writeFileSync(path.join(root, 'README.md'), '# Workspace\n');
  writeFileSync(path.join(root, 'docs', 'résumé.txt'), 'safe\n');
  writeFileSync(path.join(root, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]));
  writeFileSync(path.join(root, 'large.txt'), 'x'.repeat(4096));
  symlinkSync(path.join(parent.root, 'secret.txt'), path.join(root, 'link-out.txt'));
  symlinkSync(parent.root, path.join(root, 'parent-link'));
  return { parent, root };
}

function hostileUris(root: string, parentRoot: string): string[] {
  return [
    'workspace:///../secret.txt',
    'workspace:///%2e%2e/secret.txt',
    'workspace:///%2E%2E%2Fsecret.txt',
    'workspace:///docs/../../secret.txt',
    'workspace:///%252e%252e/secret.txt',
    'workspace:///link-out.txt',
    'workspace:///parent-link/secret.txt',
    'workspace:///../ws-evil/secret.txt',
    'workspace:////etc/passwd',
    'workspace:///README.md%00.txt',
    'workspace:///..%5csecret.txt',
    `file://${parentRoot}/secret.txt`,
    `file://${parentRoot}/ws-evil/secret.txt`,
    `file://${root}/../secret.txt`,
    'file:///etc/passwd',
    'workspace://host/README.md',
    'http://127.0.0.1/README.md',
    'workspace:///.git/config',
    '',
  ];
}

describe.each<Era>(['legacy', 'modern'])(
  'resources and the prompt through the official SDK client over stdio (%s era)',
  (era) => {
    let layout: ReturnType<typeof hostileLayout>;
    let client: Client;

    beforeAll(async () => {
      layout = hostileLayout();
      ({ client } = await connectSdkOverStdio(era, {
        WORKSPACE_ROOT: layout.root,
        TERM_MCP_MAX_RESOURCE_BYTES: '1024',
      }));
    });

    afterAll(async () => {
      await client.close();
      layout.parent.remove();
    });

    test('lists the workspace files as workspace:/// URIs, never the links or anything outside', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual([
        'workspace:///README.md',
        'workspace:///docs/r%C3%A9sum%C3%A9.txt',
        'workspace:///image.bin',
        'workspace:///large.txt',
      ]);
    });

    test('reads a UTF-8 file, by its listed URI too', async () => {
      const read = await client.readResource({ uri: 'workspace:///docs/r%C3%A9sum%C3%A9.txt' });
      expect(read.contents).toEqual([
        { uri: 'workspace:///docs/r%C3%A9sum%C3%A9.txt', mimeType: 'text/plain', text: 'safe\n' },
      ]);
    });

    test.each(['workspace:///image.bin', 'workspace:///large.txt'])(
      'refuses %s (binary or over the size cap) with -32602',
      async (uri) => {
        await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
      },
    );

    // The SDK client reports the legacy -32002 as -32602 too (it normalizes); the raw test below sees the wire code.
    test('a missing file is a not-found error naming the URI', async () => {
      await expect(client.readResource({ uri: 'workspace:///missing.txt' })).rejects.toMatchObject({
        code: -32602,
        data: expect.objectContaining({ uri: 'workspace:///missing.txt' }),
      });
    });

    test('refuses every hostile URI and never returns the secret', async () => {
      const uris = hostileUris(layout.root, layout.parent.root);
      expect(uris.length).toBeGreaterThanOrEqual(15);
      for (const uri of uris) {
        const outcome = await client.readResource({ uri }).then(
          (result) => ({ ok: true as const, text: JSON.stringify(result) }),
          (error: { code?: number; message?: string }) => ({
            ok: false as const,
            code: error.code,
            text: String(error.message),
          }),
        );
        expect({ uri, ok: outcome.ok }).toEqual({ uri, ok: false });
        expect(outcome.text).not.toContain(SECRET);
        // An error may echo the URI the client sent, but never reveal a host path the client did not send.
        if (!uri.includes(layout.parent.root)) expect(outcome.text).not.toContain(layout.parent.root);
      }
    });

    test('gets the safe_terminal_task prompt; an unknown prompt or a missing argument is -32602', async () => {
      const prompt = await client.getPrompt({ name: 'safe_terminal_task', arguments: { task: 'run the tests' } });
      const text = (prompt.messages[0]?.content as { text: string }).text;
      expect(text).toContain('terminal_plan');
      expect(text).toContain('run the tests');
      expect(text).toContain('without executing');
      await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await expect(client.getPrompt({ name: 'safe_terminal_task', arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
    });
  },
);

describe('resources through the dispatcher with raw JSON-RPC lines', () => {
  test('legacy not-found is -32002 on the wire, with data.uri', async () => {
    const layout = hostileLayout();
    const peer = new StdioPeer({ WORKSPACE_ROOT: layout.root });
    try {
      await peer.request({
        id: 'i',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const missing = await peer.request({
        id: 'r',
        method: 'resources/read',
        params: { uri: 'workspace:///missing.txt' },
      });
      expect(missing.error).toMatchObject({ code: -32002, data: { uri: 'workspace:///missing.txt' } });
    } finally {
      peer.kill();
      await peer.exited;
      layout.parent.remove();
    }
  });

  test('modern not-found is -32602 with data.uri; list pages with a cursor', async () => {
    const layout = hostileLayout();
    const peer = new StdioPeer({ WORKSPACE_ROOT: layout.root, TERM_MCP_PAGE_SIZE: '3' });
    try {
      const missing = await peer.request(modern('resources/read', 'r1', { uri: 'workspace:///missing.txt' }));
      expect(missing.error).toMatchObject({ code: -32602, data: { uri: 'workspace:///missing.txt' } });
      const first = await peer.request(modern('resources/list', 'p1'));
      expect((first.result?.resources as unknown[]).length).toBe(3);
      const second = await peer.request(modern('resources/list', 'p2', { cursor: first.result?.nextCursor }));
      expect(second.result?.resources).toEqual([expect.objectContaining({ uri: 'workspace:///large.txt' })]);
      expect(second.result).not.toHaveProperty('nextCursor');
      const tools = await peer.request(modern('tools/list', 't1'));
      expect((tools.result?.tools as unknown[]).length).toBe(3);
      expect(tools.result?.nextCursor).toEqual(expect.any(String));
    } finally {
      peer.kill();
      await peer.exited;
      layout.parent.remove();
    }
  });
});
