import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeOutsideDir, openListener } from '../support/sandbox-attack';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';
import { jsonSchemaValidator, SHIPPED_SCHEMA_FILE } from '../support/receipt-fixtures';
import { modernHeaders, modernRequest, post, read, startTestServer, TOKEN } from './http-harness';

/*
 * Sandboxed mode over STDIO against the real server and the real bubblewrap sandbox: `sh -c` lines, loops and a
 * workspace script run at once (no approval), write the workspace, and still cannot write outside it or reach a
 * listener on 127.0.0.1; the floor holds; and with TERM_MCP_SANDBOX=off the server refuses to start (exit 2).
 */

jest.setTimeout(60_000);

interface ToolResult {
  isError?: boolean;
  structuredContent: Record<string, unknown>;
}

let calls = 0;

async function callTool(peer: StdioPeer, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  calls += 1;
  const answer = await peer.request(modern('tools/call', `call-${calls}`, { name, arguments: args }), 30_000);
  return answer.result as unknown as ToolResult;
}

describe('sandboxed mode over STDIO', () => {
  let workspace: { root: string; remove(): void };
  let outside: { root: string; remove(): void };
  let listener: Awaited<ReturnType<typeof openListener>>;
  let canary: string;
  let policyFile: string;
  let gitConfig: string;
  let peer: StdioPeer;

  beforeAll(async () => {
    workspace = makeTempWorkspace('term-mcp-sandboxed-');
    outside = makeOutsideDir('term-mcp-sandboxed-canary-');
    canary = path.join(outside.root, 'canary.txt');
    writeFileSync(canary, 'untouched\n');
    listener = await openListener();
    // The attack is a script in the workspace: it tries every way out and reports what worked on stdout.
    const script = path.join(workspace.root, 'attack.sh');
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        'echo SCRIPT-RAN',
        'echo made-by-script > made-by-script.txt && echo WORKSPACE-WRITTEN',
        `echo pwned > '${canary}' 2>/dev/null && echo CANARY-WRITTEN`,
        `echo pwned > '${outside.root}/created' 2>/dev/null && echo CANARY-CREATED`,
        `bash -c 'echo hi > /dev/tcp/127.0.0.1/${listener.port}' 2>/dev/null && echo CONNECTED`,
        `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${listener.port}), 2)" 2>/dev/null && echo PY-CONNECTED`,
        `cat '${outside.root}/policy.yaml' 2>/dev/null | grep -q sandboxed && echo POLICY-READ`,
        `echo 'mode: trusted' > '${outside.root}/policy.yaml' 2>/dev/null && echo POLICY-WRITTEN`,
        "echo '[alias] x = !sh' >> .git/config 2>/dev/null && echo GIT-CONFIG-CHANGED",
        "echo 'echo hooked' > .git/hooks/pre-commit 2>/dev/null && echo HOOK-PLANTED",
        "grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status && echo NO-NEW-PRIVS",
        'exit 0',
      ].join('\n'),
    );
    chmodSync(script, 0o755);
    execFileSync('git', ['init', '-q', '.'], {
      cwd: workspace.root,
      stdio: 'ignore',
      env: { PATH: '/usr/bin:/bin', HOME: workspace.root },
    });
    mkdirSync(path.join(workspace.root, '.git', 'hooks'), { recursive: true });
    gitConfig = readFileSync(path.join(workspace.root, '.git', 'config'), 'utf8');
    // Outside the workspace (start-up refuses a policy file inside it), in the hidden-from-the-sandbox policy path.
    policyFile = path.join(outside.root, 'policy.yaml');
    writeFileSync(policyFile, 'mode: sandboxed\n');
    peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, TERM_MCP_POLICY: policyFile, HOME: outside.root });
  });

  afterAll(async () => {
    await peer.end();
    await listener.close();
    workspace.remove();
    outside.remove();
  });

  it('plans a loop through sh -c as allowed, with no approval, in mode sandboxed', async () => {
    const plan = (
      await callTool(peer, 'terminal_plan', { command: "sh -c 'for i in 1 2 3; do echo line-$i; done > loop.txt'" })
    ).structuredContent;
    expect(plan).toMatchObject({
      mode: 'sandboxed',
      status: 'planned',
      policy: { allowed: true, requires_approval: false },
    });
    expect(plan.approval_id).toBeUndefined();
    const result = await callTool(peer, 'terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      status: 'succeeded',
      exit_code: 0,
      mode: 'sandboxed',
      confinement: { sandbox: 'bubblewrap', network: 'off', writable_roots: [workspace.root, '/tmp'] },
    });
    expect(readFileSync(path.join(workspace.root, 'loop.txt'), 'utf8')).toBe('line-1\nline-2\nline-3\n');
  });

  it('runs a workspace script at once: it writes the workspace, but not outside, not the network, not the policy file', async () => {
    const result = await callTool(peer, 'terminal_execute', { command: './attack.sh' });
    expect(result.isError).toBe(false);
    const stdout = String(result.structuredContent.stdout);
    expect(stdout).toContain('SCRIPT-RAN');
    expect(stdout).toContain('WORKSPACE-WRITTEN');
    // setuid programs (sudo) cannot elevate anything the script runs.
    expect(stdout).toContain('NO-NEW-PRIVS');
    expect(readFileSync(path.join(workspace.root, 'made-by-script.txt'), 'utf8')).toBe('made-by-script\n');
    expect(readFileSync(canary, 'utf8')).toBe('untouched\n');
    expect(existsSync(path.join(outside.root, 'created'))).toBe(false);
    expect(listener.connections()).toBe(0);
    expect(stdout).not.toMatch(/CANARY-|CONNECTED|POLICY-|GIT-CONFIG|HOOK-/);
    expect(readFileSync(policyFile, 'utf8')).toBe('mode: sandboxed\n');
    expect(readFileSync(path.join(workspace.root, '.git', 'config'), 'utf8')).toBe(gitConfig);
    expect(existsSync(path.join(workspace.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it.each([
    ['sudo id', 'privilege_change'],
    ['sh -c "unshare -r id"', 'privilege_change'],
    ['cat <policy file>', 'server_files'],
    ['echo x >> .git/config', 'protected_path'],
    ['curl http://127.0.0.1:1/', 'network_disabled'],
  ])('refuses %j (%s) without running it', async (command, rule) => {
    const plan = (await callTool(peer, 'terminal_plan', { command: command.replace('<policy file>', policyFile) }))
      .structuredContent;
    expect(plan).toMatchObject({ status: 'blocked', policy: { allowed: false, matched_rule: rule } });
  });

  it('asks for an approval for a path outside the workspace', async () => {
    const plan = (await callTool(peer, 'terminal_plan', { command: `cat ${canary}` })).structuredContent;
    expect(plan).toMatchObject({
      status: 'planned',
      approval_id: expect.any(String),
      policy: { requires_approval: true, matched_rule: 'path_outside_workspace' },
    });
  });

  it('does not widen the sandbox once approved: an approved write outside the workspace still fails', async () => {
    const target = path.join(outside.root, 'approved.txt');
    const plan = (await callTool(peer, 'terminal_plan', { command: `echo approved > ${target}` })).structuredContent;
    expect(plan.policy).toMatchObject({ matched_rule: 'path_outside_workspace' });
    const ids = { session_id: plan.session_id, plan_id: plan.id };
    expect((await callTool(peer, 'terminal_approve', { ...ids, approval_id: plan.approval_id })).isError).toBe(false);
    const result = await callTool(peer, 'terminal_execute', ids);
    expect(result.structuredContent).toMatchObject({
      status: 'failed',
      stderr: expect.stringMatching(/Read-only file system/),
    });
    expect(existsSync(target)).toBe(false);
  });
});

describe('sandboxed mode over HTTP', () => {
  it('says so in /mcp/info and /ui/config, and its receipts validate against the shipped 1.0 schema', async () => {
    const server = await startTestServer({ APPROVAL_MODE: 'sandboxed' });
    try {
      const auth = { Authorization: `Bearer ${TOKEN}` };
      const info = await read(await fetch(`${server.origin}/mcp/info`, { headers: auth }));
      expect(info.json).toMatchObject({ approval_mode: 'sandboxed' });
      const ui = await read(await fetch(`${server.origin}/ui/config`, { headers: auth }));
      expect(ui.json).toMatchObject({ mode: 'sandboxed' });
      const call = await post(
        server.url,
        modernRequest('tools/call', 1, {
          name: 'terminal_execute',
          arguments: { command: "sh -c 'echo over-http > h.txt; cat h.txt'" },
        }),
        modernHeaders('tools/call', 'terminal_execute'),
      );
      const receipt = (call.json?.result as { structuredContent?: Record<string, unknown> } | undefined)
        ?.structuredContent;
      expect(receipt).toMatchObject({ mode: 'sandboxed', status: 'succeeded', stdout: 'over-http\n' });
      const validate = jsonSchemaValidator(
        JSON.parse(readFileSync(SHIPPED_SCHEMA_FILE, 'utf8')) as Record<string, unknown>,
      );
      expect(validate(receipt)).toEqual({ valid: true, errors: [] });
    } finally {
      await server.stop();
    }
  });
});

describe('sandboxed mode with TERM_MCP_SANDBOX=off', () => {
  it('refuses to start: exit 2 and a configuration error naming both settings', async () => {
    const workspace = makeTempWorkspace('term-mcp-sandboxed-off-');
    const canary = path.join(workspace.root, 'ran');
    try {
      const peer = new StdioPeer({
        WORKSPACE_ROOT: workspace.root,
        APPROVAL_MODE: 'sandboxed',
        TERM_MCP_SANDBOX: 'off',
      });
      peer.send({
        jsonrpc: '2.0',
        ...modern('tools/call', 'x', { name: 'terminal_execute', arguments: { command: `touch ${canary}` } }),
      });
      expect(await peer.exited).toBe(2);
      expect(peer.stderr).toContain('configuration error');
      expect(peer.stderr).toMatch(
        /APPROVAL_MODE: mode sandboxed needs the bubblewrap sandbox, but TERM_MCP_SANDBOX is off/,
      );
      expect(peer.messages).toEqual([]);
      expect(existsSync(canary)).toBe(false);
    } finally {
      workspace.remove();
    }
  });

  it('refuses to start when the policy file asks for it, and names the policy file', async () => {
    const workspace = makeTempWorkspace('term-mcp-sandboxed-off-');
    const policyDir = makeOutsideDir('term-mcp-sandboxed-off-policy-');
    try {
      const policy = path.join(policyDir.root, 'policy.json');
      writeFileSync(policy, JSON.stringify({ mode: 'sandboxed' }));
      const peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, TERM_MCP_POLICY: policy, TERM_MCP_SANDBOX: '0' });
      expect(await peer.exited).toBe(2);
      expect(peer.stderr).toMatch(/TERM_MCP_POLICY: mode sandboxed needs the bubblewrap sandbox/);
    } finally {
      workspace.remove();
      policyDir.remove();
    }
  });

  it('starts in the other modes (the seed behaviour is unchanged)', async () => {
    const workspace = makeTempWorkspace('term-mcp-sandboxed-off-');
    const peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'confirm', TERM_MCP_SANDBOX: 'off' });
    try {
      const answer = await peer.request(modern('tools/list', 'list'), 30_000);
      expect(answer.result).toBeDefined();
    } finally {
      await peer.end();
      workspace.remove();
    }
  });
});
