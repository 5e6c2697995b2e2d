import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeOutsideDir, openListener, RUNNING_AS_ROOT } from '../support/sandbox-attack';
import { callToolOk, connectSdkOverStdio } from '../support/sdk-client';
import {
  call,
  connectTerminalClient,
  screenCall,
  typeAndWait,
  type ScreenAnswer,
} from '../support/terminal-session-client';

/*
 * Issue 24: terminal sessions on a pseudo-terminal inside the real bubblewrap sandbox, driven through the built server
 * over STDIO by the v1 SDK client (which checks every result against its outputSchema). Every wait is on a condition
 * of the screen (a pattern) or of the program (its exit), never a sleep.
 */

jest.setTimeout(120_000);

const PROMPT = '^>>> $';

async function open(client: Client, command: string, extra: Record<string, unknown> = {}): Promise<ScreenAnswer> {
  return screenCall(client, 'terminal_open', { command, wait: { quiet_ms: 200, timeout_ms: 30_000 }, ...extra });
}

describe('terminal sessions in sandboxed mode', () => {
  let workspace: { root: string; remove(): void };
  let server: Awaited<ReturnType<typeof connectTerminalClient>>;

  beforeAll(async () => {
    workspace = makeOutsideDir('term-mcp-terminal-');
    server = await connectTerminalClient('root', workspace.root, { APPROVAL_MODE: 'sandboxed' });
  });

  afterAll(async () => {
    await server.close();
    workspace.remove();
  });

  test('python3: 1+41 gives 42; Ctrl-C interrupts time.sleep(30) with KeyboardInterrupt and the prompt comes back', async () => {
    const { client } = server;
    const opened = await open(client, 'python3 -q', { wait: { pattern: PROMPT, timeout_ms: 30_000 } });
    expect(opened).toMatchObject({
      status: 'running',
      waited: 'pattern',
      screen: { alternate_screen: false, cursor: { row: 0, col: 4 } },
    });
    const answered = await typeAndWait(client, opened, [{ text: '1+41' }, { key: 'enter' }], '^42$');
    expect(answered.screen.text.split('\n').slice(0, 3)).toEqual(['>>> 1+41', '42', '>>> ']);
    const sleeping = await typeAndWait(
      client,
      opened,
      [{ text: 'import time; time.sleep(30)' }, { key: 'enter' }],
      'time\\.sleep\\(30\\)\\n$',
    );
    expect(sleeping.status).toBe('running');
    const interrupted = await typeAndWait(
      client,
      opened,
      [{ key: 'ctrl_c' }],
      `^KeyboardInterrupt\\n${PROMPT.slice(1)}`,
    );
    expect(interrupted.waited).toBe('pattern');
    expect(interrupted.screen.text).toContain('KeyboardInterrupt');
    const ended = await screenCall(client, 'terminal_screen', {
      session_id: opened.session_id,
      command_id: opened.command_id,
      keys: [{ key: 'ctrl_d' }],
      wait: { exit: true, timeout_ms: 30_000 },
    });
    expect(ended).toMatchObject({ finished: true, waited: 'exit' });
  });

  test('resize: the program sees the new size (SIGWINCH), and so does the screen', async () => {
    const { client } = server;
    const opened = await open(client, 'bash --norc --noprofile', {
      cols: 80,
      rows: 24,
      wait: { pattern: '\\$ $|# $', timeout_ms: 30_000 },
    });
    const before = await typeAndWait(client, opened, [{ text: 'stty size' }, { key: 'enter' }], '^24 80$');
    expect(before.screen.cols).toBe(80);
    const after = await screenCall(client, 'terminal_screen', {
      session_id: opened.session_id,
      command_id: opened.command_id,
      resize: { cols: 100, rows: 30 },
      keys: [{ text: 'stty size' }, { key: 'enter' }],
      wait: { pattern: '^30 100$', timeout_ms: 30_000 },
    });
    expect(after).toMatchObject({ waited: 'pattern', screen: { cols: 100, rows: 30 } });
    expect(
      (await call(client, 'terminal_cancel', { session_id: opened.session_id, command_id: opened.command_id }))
        .structuredContent,
    ).toEqual({ cancelled: true });
  });

  test('less on a 1000-line file shows line 1 on the alternate screen; q ends it', async () => {
    const { client } = server;
    writeFileSync(
      path.join(workspace.root, 'big.txt'),
      Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`).join('\n') + '\n',
    );
    const opened = await open(client, 'less big.txt', {
      wait: { pattern: '^line 1$[\\s\\S]*^:$|big\\.txt', timeout_ms: 30_000 },
    });
    const lines = opened.screen.text.split('\n');
    expect(lines[0]).toBe('line 1');
    expect(opened.screen.alternate_screen).toBe(true);
    const paged = await typeAndWait(client, opened, [{ key: 'page_down' }], `^line ${opened.screen.rows}$`);
    expect(paged.screen.text.split('\n')[0]).not.toBe('line 1');
    const ended = await screenCall(client, 'terminal_screen', {
      session_id: opened.session_id,
      command_id: opened.command_id,
      keys: [{ text: 'q' }],
      wait: { exit: true, timeout_ms: 30_000 },
    });
    expect(ended).toMatchObject({ finished: true, status: 'succeeded', exit_code: 0 });
  });

  test('vim -u NONE f.txt, then ihello<Esc>:wq<Enter>, writes f.txt', async () => {
    const { client } = server;
    const opened = await open(client, 'vim -u NONE f.txt', { wait: { pattern: 'f\\.txt', timeout_ms: 30_000 } });
    const ended = await screenCall(client, 'terminal_screen', {
      session_id: opened.session_id,
      command_id: opened.command_id,
      keys: [{ text: 'ihello' }, { key: 'escape' }, { text: ':wq' }, { key: 'enter' }],
      wait: { exit: true, timeout_ms: 30_000 },
    });
    expect(ended).toMatchObject({ finished: true, exit_code: 0 });
    expect(readFileSync(path.join(workspace.root, 'f.txt'), 'utf8')).toBe('hello\n');
  });

  test('the receipt of a terminal session names its command, start, end, exit, what was sent and the output digest', async () => {
    const { client } = server;
    const opened = await open(client, 'cat', { wait: { timeout_ms: 0 } });
    await typeAndWait(client, opened, [{ text: 'echo-me' }, { key: 'enter' }], '^echo-me\\necho-me$');
    await screenCall(client, 'terminal_screen', {
      session_id: opened.session_id,
      command_id: opened.command_id,
      keys: [{ key: 'ctrl_d' }],
      wait: { exit: true, timeout_ms: 30_000 },
    });
    const receipt = (await call(client, 'terminal_receipt', { session_id: opened.session_id, plan_id: opened.plan_id }))
      .structuredContent;
    expect(receipt).toMatchObject({
      command: 'cat',
      command_id: opened.command_id,
      status: 'succeeded',
      exit_code: 0,
      policy: { matched_rule: 'terminal_session_sandboxed', argv: ['/bin/bash', '-c', 'cat'] },
    });
    expect(receipt?.stdout).toContain('echo-me');
    const stdout = String(receipt?.stdout);
    expect(receipt?.terminal).toEqual({
      cols: 120,
      rows: 40,
      input: 'echo-me\r\u0004',
      output_sha256: createHash('sha256').update(stdout).digest('hex'),
      output_bytes: Buffer.byteLength(stdout),
    });
    expect(typeof receipt?.started_at).toBe('string');
    expect(typeof receipt?.finished_at).toBe('string');
  });
});

describe.each(['inspect', 'confirm', 'trusted'] as const)('terminal sessions in %s mode', (mode) => {
  let workspace: { root: string; remove(): void };
  let server: Awaited<ReturnType<typeof connectTerminalClient>>;

  beforeAll(async () => {
    workspace = makeOutsideDir(`term-mcp-terminal-${mode}-`);
    server = await connectTerminalClient('root', workspace.root, { APPROVAL_MODE: mode });
  });

  afterAll(async () => {
    await server.close();
    workspace.remove();
  });

  test('opening one needs an approval; once approved it opens (and the workspace is read-only only in inspect)', async () => {
    const { client } = server;
    const refused = await call(client, 'terminal_open', { command: 'bash --norc --noprofile' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'approval_required' });
    const { sessionId, planId } = refused.structuredContent?.details as { sessionId: string; planId: string };
    const details = { session_id: sessionId, plan_id: planId };
    const approved = await call(client, 'terminal_approve', details);
    expect(approved.structuredContent).toMatchObject({ status: 'approved' });
    const opened = await screenCall(client, 'terminal_open', {
      session_id: details.session_id,
      plan_id: details.plan_id,
      wait: { pattern: '\\$ $|# $', timeout_ms: 30_000 },
    });
    expect(opened.status).toBe('running');
    const wrote = await typeAndWait(
      client,
      opened,
      [{ text: 'echo x > made.txt; echo "rc=$?"' }, { key: 'enter' }],
      '^rc=\\d+$',
    );
    expect(wrote.screen.text).toMatch(mode === 'inspect' ? /^rc=[1-9]\d*$/m : /^rc=0$/m);
    expect(existsSync(path.join(workspace.root, 'made.txt'))).toBe(mode !== 'inspect');
    await call(client, 'terminal_cancel', { session_id: opened.session_id, command_id: opened.command_id });
    const again = await call(client, 'terminal_open', { session_id: details.session_id, plan_id: details.plan_id });
    expect(again.isError).toBe(true);
  });
});

const users = RUNNING_AS_ROOT ? (['root', 'nobody'] as const) : (['root'] as const);

describe.each(users)('a bash terminal session with the server as %s', (who) => {
  test('cannot reach the network (curl) nor write outside the workspace', async () => {
    const workspace = makeOutsideDir('term-mcp-terminal-attack-');
    const outside = makeOutsideDir('term-mcp-terminal-canary-');
    const canary = path.join(outside.root, 'canary.txt');
    writeFileSync(canary, 'untouched\n');
    const listener = await openListener();
    const server = await connectTerminalClient(who, workspace.root, { APPROVAL_MODE: 'sandboxed' });
    try {
      const { client } = server;
      const opened = await open(server.client, 'bash --norc --noprofile', {
        wait: { pattern: '\\$ $|# $', timeout_ms: 30_000 },
      });
      const curled = await typeAndWait(
        client,
        opened,
        [{ text: `curl -sS -m 5 http://127.0.0.1:${listener.port}/ ; echo "curl=$?"` }, { key: 'enter' }],
        '^curl=\\d+$',
      );
      expect(curled.screen.text).toMatch(/^curl=[1-9]\d*$/m);
      const external = await typeAndWait(
        client,
        opened,
        [{ text: 'curl -sS -m 5 https://example.com/ ; echo "ext=$?"' }, { key: 'enter' }],
        '^ext=\\d+$',
      );
      expect(external.screen.text).toMatch(/^ext=[1-9]\d*$/m);
      const wrote = await typeAndWait(
        client,
        opened,
        [
          { text: `echo pwned > '${canary}'; echo "w1=$?"; echo pwned > '${outside.root}/created'; echo "w2=$?"` },
          { key: 'enter' },
        ],
        '^w2=\\d+$',
      );
      expect(wrote.screen.text).toMatch(/^w1=[1-9]\d*$/m);
      expect(wrote.screen.text).toMatch(/^w2=[1-9]\d*$/m);
      expect(listener.connections()).toBe(0);
      expect(readFileSync(canary, 'utf8')).toBe('untouched\n');
      expect(existsSync(path.join(outside.root, 'created'))).toBe(false);
      const ended = await screenCall(client, 'terminal_screen', {
        session_id: opened.session_id,
        command_id: opened.command_id,
        keys: [{ text: 'exit 3' }, { key: 'enter' }],
        wait: { exit: true, timeout_ms: 30_000 },
      });
      expect(ended).toMatchObject({ finished: true, exit_code: 3 });
    } finally {
      await server.close();
      await listener.close();
      workspace.remove();
      outside.remove();
    }
  });
});

describe.each(['legacy', 'modern'] as const)(
  'the v2 client (@modelcontextprotocol/client, %s era) drives a terminal session',
  (era) => {
    test('python3: 1+41 gives 42, Ctrl-D ends it, and the receipt is readable', async () => {
      const workspace = makeOutsideDir('term-mcp-terminal-v2-');
      const { client } = await connectSdkOverStdio(era, {
        WORKSPACE_ROOT: workspace.root,
        APPROVAL_MODE: 'sandboxed',
        LOG_LEVEL: 'error',
      });
      try {
        const opened = await callToolOk(client, 'terminal_open', {
          command: 'python3 -q',
          wait: { pattern: PROMPT, timeout_ms: 30_000 },
        });
        const target = { session_id: opened.session_id, command_id: opened.command_id };
        const answered = await callToolOk(client, 'terminal_screen', {
          ...target,
          keys: [{ text: '1+41' }, { key: 'enter' }],
          wait: { pattern: '^42$', timeout_ms: 30_000 },
        });
        expect(answered).toMatchObject({ waited: 'pattern', status: 'running' });
        const ended = await callToolOk(client, 'terminal_screen', {
          ...target,
          keys: [{ key: 'ctrl_d' }],
          wait: { exit: true, timeout_ms: 30_000 },
        });
        expect(ended).toMatchObject({ finished: true, status: 'succeeded', exit_code: 0 });
        const receipt = await callToolOk(client, 'terminal_receipt', { session_id: opened.session_id });
        expect(receipt).toMatchObject({ command: 'python3 -q', exit_code: 0, terminal: { input: '1+41\r\u0004' } });
      } finally {
        await client.close();
        workspace.remove();
      }
    });
  },
);
