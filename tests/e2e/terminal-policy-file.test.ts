import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MODERN_META } from '../support/stdio-peer';
import { CLI_PATH, makeTempWorkspace } from '../support/workspace';

/** TERM_MCP_POLICY is loaded when the server starts: a bad file stops it with a message naming file and field. */
describe('policy file at start-up', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  // The policy file lives outside the workspace (start-up refuses one inside it).
  let outside: ReturnType<typeof makeTempWorkspace>;

  beforeEach(() => {
    workspace = makeTempWorkspace();
    outside = makeTempWorkspace('term-mcp-policy-');
  });

  afterEach(() => {
    workspace.remove();
    outside.remove();
  });

  function runStdio(
    env: Record<string, string>,
    input = '',
  ): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(process.execPath, [CLI_PATH, 'stdio'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WORKSPACE_ROOT: workspace.root, ...env },
      input,
      encoding: 'utf8',
      timeout: 15_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  test('an invalid field fails start-up with exit code 2, naming the file and the field', () => {
    const file = path.join(outside.root, 'policy.yaml');
    writeFileSync(file, 'mode: confirm\ncommands:\n  read_only: [jq, bash]\n');
    const { status, stderr } = runStdio({ TERM_MCP_POLICY: file });
    expect(status).toBe(2);
    expect(stderr).toContain(`TERM_MCP_POLICY: ${file}`);
    expect(stderr).toContain('commands.read_only[1]');
  });

  test('a file that cannot be read fails start-up', () => {
    const file = path.join(outside.root, 'missing.json');
    const { status, stderr } = runStdio({ TERM_MCP_POLICY: file });
    expect(status).toBe(2);
    expect(stderr).toContain(`TERM_MCP_POLICY: ${file}: cannot read the policy file (ENOENT)`);
  });

  test('a file with another extension fails start-up', () => {
    const file = path.join(outside.root, 'policy.txt');
    writeFileSync(file, '{}');
    const { status, stderr } = runStdio({ TERM_MCP_POLICY: file });
    expect(status).toBe(2);
    expect(stderr).toContain('must end in .json, .yaml or .yml');
  });

  test('a valid JSON file sets the mode, and APPROVAL_MODE overrides it', () => {
    const file = path.join(outside.root, 'policy.json');
    writeFileSync(file, JSON.stringify({ mode: 'confirm' }));
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'terminal_plan', arguments: { command: 'touch a.txt' }, _meta: MODERN_META } })}\n`;
    const fromFile = JSON.parse(runStdio({ TERM_MCP_POLICY: file }, request).stdout.split('\n')[0] ?? '{}');
    expect(fromFile.result.structuredContent).toMatchObject({ mode: 'confirm', status: 'planned' });
    const overridden = JSON.parse(
      runStdio({ TERM_MCP_POLICY: file, APPROVAL_MODE: 'inspect' }, request).stdout.split('\n')[0] ?? '{}',
    );
    expect(overridden.result.structuredContent).toMatchObject({ mode: 'inspect', status: 'blocked' });
  });
});
