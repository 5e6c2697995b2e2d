import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectV1Client, type V1Connection } from '../support/sdk-v1-client';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 24: a command without a terminal never waits for a person. Against the built server over STDIO, in the real
 * bubblewrap sandbox: `git log` in a repository of 500 commits and `git commit` without `-m` both end (a pager or an
 * editor waiting on a terminal would keep the call open until the client gave up), stdin reads end-of-file at once,
 * and the policy file's `environment` replaces a value.
 */

jest.setTimeout(120_000);

const COMMITS = 500;

interface Receipt {
  status: string;
  exit_code: number | null;
  stdout: string;
  stderr: string;
  output: { stdout: { total_bytes: number } };
}

/** A repository of `COMMITS` commits (one fast-import stream: seconds instead of 500 `git commit` processes) and a staged change. */
function makeRepository(root: string): void {
  const git = (...args: string[]): string =>
    execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test');
  git('config', 'user.email', 'test@example.invalid');
  let stream = '';
  for (let index = 1; index <= COMMITS; index += 1) {
    const message = `commit number ${index}\n`;
    const content = `line ${index}\n`;
    stream += `commit refs/heads/main\ncommitter Test <test@example.invalid> ${1_700_000_000 + index} +0000\n`;
    stream += `data ${Buffer.byteLength(message)}\n${message}`;
    stream += `M 100644 inline file.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  execFileSync('git', ['-C', root, 'fast-import', '--quiet'], { input: stream });
  git('checkout', '-q', 'main');
  writeFileSync(path.join(root, 'staged.txt'), 'a change to commit\n');
  git('add', 'staged.txt');
}

async function execute(connection: V1Connection, command: string): Promise<Receipt> {
  const result = await connection.client.callTool({ name: 'terminal_execute', arguments: { command } });
  return result.structuredContent as unknown as Receipt;
}

describe('non-PTY commands never wait for a person (built server, STDIO, sandbox)', () => {
  let connection: V1Connection;

  beforeAll(async () => {
    connection = await connectV1Client('stdio', { APPROVAL_MODE: 'sandboxed' });
    makeRepository(connection.workspaceRoot);
  });

  afterAll(async () => {
    await connection.close();
  });

  test('git log in a repository of 500 commits ends with every commit, printed through no pager', async () => {
    const receipt = await execute(connection, 'git log --format=%s');
    expect(receipt.status).toBe('succeeded');
    // The receipt shows the first and the last lines (TERM_MCP_RESULT_MAX_LINES); the byte count covers all 500.
    const subjects = receipt.stdout.trim().split('\n');
    expect(subjects[0]).toBe(`commit number ${COMMITS}`);
    expect(subjects.at(-1)).toBe('commit number 1');
    const everySubject = Array.from({ length: COMMITS }, (_, index) => `commit number ${index + 1}\n`).join('');
    expect(receipt.output.stdout.total_bytes).toBe(Buffer.byteLength(everySubject));
  });

  test('git commit without -m ends: the editor is `true`, so git aborts on the empty message', async () => {
    const receipt = await execute(connection, 'git commit');
    expect(receipt.status).toBe('failed');
    expect(receipt.exit_code).toBe(1);
    expect(receipt.stderr).toContain('Aborting commit due to empty commit message');
  });

  test('a command reading stdin reads end-of-file at once', async () => {
    const receipt = await execute(connection, 'cat');
    expect(receipt).toMatchObject({ status: 'succeeded', stdout: '' });
  });

  test('commands get the documented non-interactive environment', async () => {
    const receipt = await execute(
      connection,
      'printenv PAGER GIT_PAGER GIT_EDITOR EDITOR GIT_TERMINAL_PROMPT DEBIAN_FRONTEND',
    );
    expect(receipt.stdout).toBe('cat\ncat\ntrue\ntrue\n0\nnoninteractive\n');
  });
});

describe('the policy file replaces a non-interactive value', () => {
  let connection: V1Connection;
  let outside: ReturnType<typeof makeTempWorkspace>;

  beforeAll(async () => {
    outside = makeTempWorkspace('term-mcp-policy-');
    const policyFile = path.join(outside.root, 'policy.yaml');
    writeFileSync(policyFile, 'mode: sandboxed\nenvironment:\n  GIT_EDITOR: "false"\n  PAGER: "cat -v"\n');
    connection = await connectV1Client('stdio', { TERM_MCP_POLICY: policyFile });
    makeRepository(connection.workspaceRoot);
  });

  afterAll(async () => {
    await connection.close();
    outside.remove();
  });

  test('git runs the configured editor, and the other values stay', async () => {
    const commit = await execute(connection, 'git commit');
    expect(commit.status).toBe('failed');
    expect(commit.stderr).toContain("There was a problem with the editor 'false'");
    const environment = await execute(connection, 'printenv PAGER GIT_PAGER EDITOR');
    expect(environment.stdout).toBe('cat -v\ncat\ntrue\n');
  });
});
