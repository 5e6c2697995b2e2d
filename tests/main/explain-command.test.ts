import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/adapters/cli/run-cli';
import { CLI_SERVICES } from '../../src/main/cli-services';

/** `term-mcp explain` in-process, against a real temp workspace and real policy files. */
describe('term-mcp explain', () => {
  let root: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-explain-')));
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'README.md'), '# x\n');
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function explain(...argv: string[]) {
    return explainWith({}, ...argv);
  }

  async function explainWith(env: Record<string, string>, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['explain', ...argv], {
      env,
      cwd: root,
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      services: CLI_SERVICES,
    });
    return { code, stdout, stderr };
  }

  it('prints the verdict, rule, reasons, parts and launch of an allowed line', async () => {
    const { code, stdout, stderr } = await explain('cat README.md | wc -l');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(`verdict: allow (mode inspect, cwd ${root})`);
    expect(stdout).toContain('rule:    read_only_command');
    expect(stdout).toContain('  - allow [read_only_command] "cat README.md": read-only command');
    expect(stdout).toMatch(/launch: {2}\/bin\/sh -c "'\/(usr\/)?bin\/cat' README\.md \| '\/(usr\/)?bin\/wc' -l"/);
  });

  it('explains a denial and says nothing would run', async () => {
    const { stdout } = await explain('if true; then ls; fi');
    expect(stdout).toContain('verdict: deny');
    expect(stdout).toContain('rule:    shell_keyword');
    expect(stdout).toContain('launch:  none (denied: nothing would run)');
  });

  it('runs nothing, even for a line the mode allows', async () => {
    const { stdout } = await explain('touch created.txt', '--mode', 'trusted');
    expect(stdout).toContain('verdict: allow (mode trusted');
    expect(fs.existsSync(path.join(root, 'created.txt'))).toBe(false);
  });

  it('explains sandboxed mode: a loop through sh -c is allowed and launched as written; sudo inside it is denied', async () => {
    const line = 'sh -c \'for f in src/*; do wc -l "$f"; done\'';
    const { code, stdout } = await explain(line, '--mode', 'sandboxed');
    expect(code).toBe(0);
    expect(stdout).toContain(`verdict: allow (mode sandboxed, cwd ${root})`);
    expect(stdout).toContain('rule:    sandboxed_command');
    expect(stdout).toContain(`launch:  /bin/sh -c ${JSON.stringify(line)}`);
    const denied = await explain('sh -c "sudo make install"', '--mode', 'sandboxed');
    expect(denied.stdout).toContain('rule:    privilege_change');
    expect(fs.existsSync(path.join(root, 'created.txt'))).toBe(false);
  });

  it('refuses sandboxed mode with the sandbox off, as the server would (exit 2)', async () => {
    const { code, stdout, stderr } = await explainWith({ TERM_MCP_SANDBOX: 'off' }, 'ls', '--mode', 'sandboxed');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('mode sandboxed needs the bubblewrap sandbox, but TERM_MCP_SANDBOX is off');
  });

  it('takes --cwd relative to the workspace and refuses one outside it', async () => {
    expect((await explain('ls', '--cwd', 'src')).stdout).toContain(`cwd ${path.join(root, 'src')})`);
    expect((await explain('ls', '--cwd', '../..')).stdout).toContain('rule:    cwd_outside_workspace');
  });

  it('judges with the policy file and prints JSON with --json', async () => {
    // Outside the workspace: a policy file inside it is refused at start-up.
    const policyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-explain-policy-'));
    const policy = path.join(policyDir, 'policy.json');
    fs.writeFileSync(policy, JSON.stringify({ commands: { deny: ['wc'] } }));
    const { code, stdout } = await explain('wc -l README.md', '--policy', policy, '--json');
    fs.rmSync(policyDir, { recursive: true, force: true });
    expect(code).toBe(4);
    expect(JSON.parse(stdout)).toMatchObject({
      command: 'wc -l README.md',
      mode: 'inspect',
      policy: {
        allowed: false,
        requires_approval: false,
        verdict: 'deny',
        matched_rule: 'policy_denied_command',
        argv: [],
      },
      launch: null,
    });
  });

  it('prints --json with the snake_case fields of plans and receipts', async () => {
    const { code, stdout } = await explain('touch out.txt', '--mode', 'confirm', '--json');
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toEqual({
      command: 'touch out.txt',
      cwd: root,
      mode: 'confirm',
      policy: {
        allowed: true,
        risk: 'high',
        requires_approval: true,
        reasons: ['command can modify workspace files'],
        argv: [expect.stringMatching(/^\/(usr\/)?bin\/touch$/), 'out.txt'],
        verdict: 'approval_required',
        matched_rule: 'write_command',
      },
      parts: [
        {
          text: 'touch out.txt',
          verdict: 'approval_required',
          rule: 'write_command',
          reason: 'command can modify workspace files',
        },
      ],
      preview: {
        executable: expect.stringMatching(/touch$/),
        files_potentially_touched: ['out.txt'],
        network_requested: false,
        executes_project_code: false,
        risk: 'high',
      },
      launch: { kind: 'argv', argv: [expect.stringMatching(/touch$/), 'out.txt'] },
    });
  });

  it('exits with the verdict: 0 allow, 3 needs approval, 4 deny, in text and JSON alike', async () => {
    expect((await explain('ls')).code).toBe(0);
    expect((await explain('ls', '--json')).code).toBe(0);
    expect((await explain('sleep 1')).code).toBe(3);
    expect((await explain('sleep 1', '--json')).code).toBe(3);
    expect((await explain('sort --compress-prog=sh README.md')).code).toBe(4);
    expect((await explain('sort --compress-prog=sh README.md', '--json')).code).toBe(4);
  });

  it('judges `cd src && ls` in src, and refuses a cd out of the workspace naming the cwd argument', async () => {
    const inside = await explain('cd src && ls', '--json');
    expect(inside.code).toBe(0);
    expect(JSON.parse(inside.stdout)).toMatchObject({
      policy: { verdict: 'allow' },
      launch: { kind: 'shell', script: expect.stringMatching(/^cd src && '\/(usr\/)?bin\/ls'$/) },
    });
    const outside = await explain('cd .. && ls', '--json');
    expect(outside.code).toBe(4);
    expect(JSON.parse(outside.stdout)).toMatchObject({
      policy: { matched_rule: 'cd_outside_workspace', reasons: [expect.stringContaining('set the cwd argument')] },
    });
  });

  it('refuses a missing command line and a bad mode with exit 2', async () => {
    expect(await explain()).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('give the command line to explain'),
    });
    expect(await explain('ls', '--mode', 'yolo')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('configuration error'),
    });
  });
});
