import { chmodSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 26 item 8 against the built server, its real filtering proxy and the real sandbox, with the server as root and
 * as uid 65534: an allowed IP literal that is one of this machine's own interface addresses, or a loopback in an IPv6
 * spelling, is refused before any connection is made (no traffic leaves for a non-loopback address: the refusal is
 * decided on the address); and one command holding many idle connections does not cut another command off.
 */

jest.setTimeout(90_000);

const AS_NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

/** This machine's own non-loopback addresses, as allow-list entries (IPv6 bracketed). */
function ownAddressEntries(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.startsWith('fe80:'))
    .map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));
}

describe.each([
  ['root', []],
  ['uid 65534', AS_NOBODY],
] as const)('the filtering proxy, the server as %s', (_user, launcher) => {
  let destination: http.Server;
  let port: number;
  let hits: string[];
  let workspace: { root: string; remove(): void };
  let peer: StdioPeer;
  let calls = 0;
  const own = ownAddressEntries();

  const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    calls += 1;
    const answer = await peer.request(modern('tools/call', `c${String(calls)}`, { name, arguments: args }), 60_000);
    const result = answer.result as { structuredContent?: Record<string, unknown> };
    if (result.structuredContent === undefined) throw new Error(`${name} answered ${JSON.stringify(answer)}`);
    return result.structuredContent;
  };

  /** A workspace script (sandboxed mode runs it at once): `./name`. */
  const script = (name: string, body: string): string => {
    writeFileSync(path.join(workspace.root, name), `#!/bin/bash\n${body}\n`);
    chmodSync(path.join(workspace.root, name), 0o755);
    return `./${name}`;
  };

  beforeAll(async () => {
    hits = [];
    destination = http.createServer((request, response) => {
      hits.push(request.url ?? '');
      response.end('local mirror\n');
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    port = (destination.address() as AddressInfo).port;
    workspace = makeTempWorkspace('term-mcp-proxy-e2e-');
    chmodSync(workspace.root, 0o777);
    peer = new StdioPeer(
      {
        WORKSPACE_ROOT: workspace.root,
        APPROVAL_MODE: 'sandboxed',
        ALLOW_NETWORK: '1',
        TERM_MCP_ALLOWED_DOMAINS: ['localhost', '[::127.0.0.1]', '[64:ff9b::7f00:1]', ...own].join(','),
        TERM_MCP_PROXY_LOOPBACK_PORTS: String(port),
      },
      ['stdio'],
      [...launcher],
    );
  });

  afterAll(async () => {
    await peer.end();
    workspace.remove();
    destination.closeAllConnections();
    await new Promise((resolve) => destination.close(resolve));
  });

  it("refuses the machine's own interface addresses and loopback in IPv6 spellings, even when allow-listed", async () => {
    expect(own.length).toBeGreaterThan(0);
    const targets = ['[::127.0.0.1]', '[64:ff9b::7f00:1]', ...own];
    const lines = targets.map(
      (target) =>
        `curl -s -o /dev/null -w '${target}=%{http_code}\\n' --max-time 20 'http://${target}:${String(port)}/own'`,
    );
    const receipt = await call('terminal_execute', { command: script('own.sh', lines.join('\n')) });
    expect(String(receipt.stdout).trim().split('\n')).toEqual(targets.map((target) => `${target}=403`));
    expect(hits).toEqual([]);
    expect(peer.stderr).toContain('not a public address');
  });

  it("one command's idle connections do not cut another command off", async () => {
    // Command A opens 100 idle connections to the proxy bridge and keeps them; past its cap the proxy answers 503.
    const hog = script(
      'hog.sh',
      [
        'for i in $(seq 100); do exec {fd}<>/dev/tcp/127.0.0.1/3128 || break; done',
        'exec 9<>/dev/tcp/127.0.0.1/3128',
        `printf 'GET http://localhost:${String(port)}/hog HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' >&9`,
        'head -n 1 <&9',
        'echo HOG-READY',
        'sleep 60',
      ].join('\n'),
    );
    const started = await call('terminal_execute', { command: hog, wait_seconds: 0, timeout_seconds: 90 });
    const ids = { session_id: started.session_id, command_id: started.command_id };
    let stdout = '';
    while (!stdout.includes('HOG-READY')) {
      const read = await call('terminal_read', { ...ids, wait_seconds: 5 });
      stdout = String((read.stdout as { text: string }).text);
      if (read.finished === true && !stdout.includes('HOG-READY'))
        throw new Error(`the hog ended early: ${JSON.stringify(read)}`);
    }
    expect(stdout).toMatch(/^HTTP\/1\.1 503 /);
    // Command B, while A still holds its connections: served.
    const other = await call('terminal_execute', {
      command: script('other.sh', `curl -s --max-time 20 http://localhost:${String(port)}/other`),
    });
    expect(other).toMatchObject({ stdout: 'local mirror\n' });
    expect(hits).toEqual(['/other']);
    await call('terminal_cancel', ids);
  });
});
