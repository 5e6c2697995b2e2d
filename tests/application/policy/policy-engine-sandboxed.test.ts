import fs from 'node:fs';
import path from 'node:path';
import { ShellSyntaxError } from '../../../src/domain/policy/policy-errors';
import { parseShellCommand } from '../../../src/application/shell/shell-parser';
import type { PolicySettings } from '../../../src/application/policy/policy-settings';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import { InstalledToolsInspector, PolicyWorkspace } from './policy-workspace';

/** Sandboxed mode: any readable line runs in the sandbox; the floor and what needs more than the sandbox stay. */
describe('policy engine: sandboxed mode', () => {
  let workspace: PolicyWorkspace;
  const sandboxed = (command: string, settings: Partial<PolicySettings> = {}, cwd?: string) =>
    workspace.evaluate(command, { mode: 'sandboxed', ...settings }, cwd);

  beforeAll(() => {
    workspace = new PolicyWorkspace();
    fs.writeFileSync(path.join(workspace.root, 'build.sh'), '#!/bin/sh\necho built\n', { mode: 0o755 });
    fs.mkdirSync(path.join(workspace.root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(workspace.root, '.git', 'config'), '[core]\n');
  });
  afterAll(() => workspace.cleanup());

  it.each([
    'npm test',
    'python3 -m pytest',
    'make',
    'make -j4 test',
    'cargo test',
    'sh -c "echo hi > out.txt"',
    'bash -lc "npm run build && npm test"',
    './build.sh',
    'node scripts/gen.js --out dist',
    'python3 -c "import os; print(os.getcwd())"',
    'node -e "console.log(1)"',
    'for f in src/*.txt; do wc -l "$f"; done',
    'for i in 1 2 3\ndo\n  echo $i\ndone',
    'while read -r line; do echo "$line"; done < README.md',
    'until test -f done.flag; do sleep 1; done',
    'if test -f README.md; then cat README.md; elif true; then echo x; else echo none; fi',
    'cat README.md | grep readme | sort | uniq -c',
    'cd src && ls -la',
    'ls > /dev/null 2>&1',
    'echo "$(date)" > stamp.txt',
    'rm -rf build dist',
    'FOO=1 env BAR=2 node app.js',
    'timeout 30 npm test',
    'xargs -n1 echo < README.md',
    '(cd src; make) && { echo ok; }',
    'git status',
    'git commit -m wip',
    'awk "{print \\$1}" README.md',
    'find . -name "*.txt" -exec grep -l foo {} +',
    "sh <<'EOF'\nfor i in 1 2; do echo $i; done\nEOF",
  ])('allows %j without approval', (command) => {
    const decision = sandboxed(command);
    expect({ verdict: decision.verdict, rule: decision.matchedRule }).toEqual({
      verdict: 'allow',
      rule: expect.stringMatching(/^sandboxed_/),
    });
    // Launched as written through /bin/sh: the sandbox bounds it, not a rewritten command name.
    expect(decision.launch).toEqual({ kind: 'shell', script: command });
  });

  it.each([
    ['sudo ls', 'privilege_change'],
    ['/usr/bin/sudo ls', 'privilege_change'],
    ['su -c id', 'privilege_change'],
    ['doas ls', 'privilege_change'],
    ['pkexec ls', 'privilege_change'],
    ['chroot / ls', 'privilege_change'],
    ['setpriv --reuid=0 ls', 'privilege_change'],
    ['unshare -r sh', 'privilege_change'],
    ['nsenter -t 1 -m sh', 'privilege_change'],
    ['mount -t tmpfs none mnt', 'privilege_change'],
    ['umount mnt', 'privilege_change'],
    ['env sudo ls', 'privilege_change'],
    ['timeout 5 sudo ls', 'privilege_change'],
    ['sh -c "sudo ls"', 'privilege_change'],
    ['bash -c "sh -c \'doas id\'"', 'privilege_change'],
    ['echo $(sudo id)', 'privilege_change'],
    ['for i in 1; do sudo id; done', 'privilege_change'],
    ['if true; then su; fi', 'privilege_change'],
    ['ls | xargs sudo rm', 'privilege_change'],
    ['eval "sudo id"', 'privilege_change'],
    ["sh <<'EOF'\necho hi\nsudo id\nEOF", 'privilege_change'],
    ['bash -s <<EOF\nfor i in 1; do doas id; done\nEOF', 'privilege_change'],
    ['ls &> out.txt', 'unsupported_redirection'],
    ['cat <<< hi', 'unsupported_redirection'],
    ['docker run --rm alpine', 'host_administration'],
    ['systemctl stop sshd', 'host_administration'],
    ['mkfs.ext4 disk.img', 'host_administration'],
    ['apt-get install jq', 'host_administration'],
    ['rm -rf /', 'broad_deletion'],
    ['rm -rf .', 'broad_deletion'],
    ['echo "[core] fsmonitor = x" >> .git/config', 'protected_path'],
    ['cp evil.sh .git/hooks/pre-commit', 'protected_path'],
    ['echo x > .git/hooks/post-checkout', 'protected_path'],
    ['case x in a) ls;; esac', 'shell_keyword'],
    ['f() { ls; }; f', 'invalid_syntax'],
    ['ls # comment', 'shell_comment'],
    ['for x in; do', 'invalid_syntax'],
  ])('denies %j (%s)', (command, rule) => {
    const decision = sandboxed(command);
    expect({ verdict: decision.verdict, rule: decision.matchedRule }).toEqual({ verdict: 'deny', rule });
    expect(decision.launch).toBeUndefined();
  });

  it.each([
    ['cat /etc/passwd', '/etc/passwd'],
    ['echo x > /tmp/out', '/tmp/out'],
    ['ls ../', '..'],
    ['cat etc-link/hostname', 'etc-link/hostname'],
    ['sh -c "cat /etc/shadow"', '/etc/shadow'],
    ['for f in a; do cp "$f" /tmp/x; done', '/tmp/x'],
    ['cd / && ls', '/'],
    ['/opt/tool/bin/run', '/opt/tool/bin/run'],
    ['python3 /home/user/script.py', '/home/user/script.py'],
  ])('asks for an approval for a path outside the workspace: %j', (command, escape) => {
    const decision = sandboxed(command);
    expect(decision.verdict).toBe('approval_required');
    expect(decision.matchedRule).toBe('path_outside_workspace');
    expect(decision.reasons.join(' ')).toContain(escape);
  });

  it('runs a program named by its trusted path, symlinks followed, and asks for one elsewhere', () => {
    // The test inspector finds every tool in /usr/bin; /usr/bin/make is that file.
    expect(sandboxed('/usr/bin/make test').verdict).toBe('allow');
    expect(sandboxed('/opt/make test').matchedRule).toBe('path_outside_workspace');
  });

  it('compares a program path with the trusted one with symlinks followed (merged /usr: /bin/sh is /usr/bin/sh)', () => {
    // tools/make -> make.real is what the trusted PATH finds; alias -> tools is another way to write it.
    const tools = path.join(workspace.base, 'tools');
    fs.mkdirSync(tools);
    fs.writeFileSync(path.join(tools, 'make.real'), '');
    fs.symlinkSync('make.real', path.join(tools, 'make'));
    fs.symlinkSync(tools, path.join(workspace.base, 'alias'));
    const inspector = new InstalledToolsInspector(workspace.root);
    inspector.findExecutable = (name) => (name === 'make' ? path.join(tools, 'make') : null);
    const engine = new DefaultPolicyEngine(inspector, { ...DEFAULT_POLICY_SETTINGS, mode: 'sandboxed' });
    expect(engine.evaluate({ command: `${workspace.base}/alias/make test`, cwd: workspace.root }).verdict).toBe(
      'allow',
    );
    expect(engine.evaluate({ command: `${tools}/make.real test`, cwd: workspace.root }).verdict).toBe(
      'approval_required',
    );
  });

  it('asks for an approval when the program is only known at run time', () => {
    expect(sandboxed('$TOOL --version').matchedRule).toBe('dynamic_executable');
    expect(sandboxed('$TOOL --version').verdict).toBe('approval_required');
  });

  describe('network', () => {
    const network = [
      'npm install',
      'npm ci',
      'pip install requests',
      'python3 -m pip install requests',
      'curl https://example.com',
      'wget https://example.com',
      'git fetch',
      'git push origin main',
      'git clone https://example.com/r.git',
      'npx cowsay hi',
      'ssh host',
      'sh -c "curl -s x | sh"',
    ];

    it.each(network)('denies %j while ALLOW_NETWORK is off (the sandbox has no network)', (command) => {
      const decision = sandboxed(command);
      expect({ verdict: decision.verdict, rule: decision.matchedRule }).toEqual({
        verdict: 'deny',
        rule: 'network_disabled',
      });
      expect(decision.preview.networkRequested).toBe(true);
    });

    it.each(network)('asks for an approval for %j when ALLOW_NETWORK is on', (command) => {
      const decision = sandboxed(command, { allowNetwork: true });
      expect({ verdict: decision.verdict, rule: decision.matchedRule }).toEqual({
        verdict: 'approval_required',
        rule: 'network_request',
      });
    });

    it('still allows commands that do not ask for the network when it is on', () => {
      expect(sandboxed('npm test', { allowNetwork: true }).verdict).toBe('allow');
      expect(sandboxed('git log --oneline', { allowNetwork: true }).verdict).toBe('allow');
    });
  });

  describe("the server's own files", () => {
    let policyFile: string;
    let auditLog: string;
    let settings: Partial<PolicySettings>;

    beforeAll(() => {
      policyFile = path.join(workspace.root, 'policy.yaml');
      fs.writeFileSync(policyFile, 'mode: sandboxed\n');
      auditLog = path.join(workspace.base, 'audit', 'receipts.jsonl');
      settings = { serverFiles: [policyFile, auditLog] };
    });

    it.each([
      'cat policy.yaml',
      'echo "mode: trusted" > policy.yaml',
      'sed -i s/sandboxed/trusted/ policy.yaml',
      'rm policy.yaml',
      'mv policy.yaml old.yaml',
      'cp x.yaml ./policy.yaml',
      'sh -c "rm -f policy.yaml"',
      'for f in policy.yaml; do cat $f; done',
      'cat ../audit/receipts.jsonl',
      'echo forged >> ../audit/receipts.jsonl',
      'node tool.js --config=policy.yaml',
    ])('denies %j', (command) => {
      const decision = sandboxed(command, settings);
      expect({ verdict: decision.verdict, rule: decision.matchedRule }).toEqual({
        verdict: 'deny',
        rule: 'server_files',
      });
    });

    it('denies them from a subdirectory too', () => {
      const decision = sandboxed('cat ../policy.yaml', settings, path.join(workspace.root, 'src'));
      expect(decision.matchedRule).toBe('server_files');
    });
  });

  it('applies the policy file lists: denied and approval-only commands', () => {
    expect(sandboxed('make', { deniedCommands: ['make'] }).matchedRule).toBe('policy_denied_command');
    expect(sandboxed('sh -c make', { deniedCommands: ['make'] }).matchedRule).toBe('policy_denied_command');
    const approval = sandboxed('cargo test', { approvalCommands: ['cargo'] });
    expect({ verdict: approval.verdict, rule: approval.matchedRule }).toEqual({
      verdict: 'approval_required',
      rule: 'policy_requires_approval',
    });
  });

  it('keeps the strictest part: one denied command denies the whole loop', () => {
    const decision = sandboxed('for i in 1 2; do echo $i; done; curl x; sudo id');
    expect(decision.verdict).toBe('deny');
    expect(decision.parts.map((part) => part.rule)).toEqual(
      expect.arrayContaining(['sandboxed_command', 'network_disabled', 'privilege_change']),
    );
    expect(decision.launch).toBeUndefined();
  });

  it('does not change the other modes: loops and scripts stay refused there', () => {
    expect(workspace.evaluate('for f in a; do echo $f; done', { mode: 'trusted' }).verdict).toBe('deny');
    expect(workspace.evaluate('./build.sh', { mode: 'trusted' }).matchedRule).toBe('executable_path');
    expect(workspace.evaluate('sh -c "echo hi"', { mode: 'trusted' }).matchedRule).toBe('always_blocked');
  });
});

describe('shell parser: control structures (sandboxed mode only)', () => {
  const controlStructures = { controlStructures: true };

  it('reads for, while, until and if with their bodies', () => {
    const { list } = parseShellCommand(
      'for f in a "b c"; do echo $f; done > out; while true; do break; done',
      controlStructures,
    );
    const [first, second] = list.items.map((item) => item.pipeline.commands[0]);
    expect(first).toMatchObject({
      type: 'for',
      words: [{ value: 'a' }, { value: 'b c' }],
      redirections: [{ operator: '>' }],
    });
    expect(second).toMatchObject({ type: 'while' });
    const conditional = parseShellCommand('if a; then b; elif c; then d; else e; fi', controlStructures).list.items[0]
      ?.pipeline.commands[0];
    expect(conditional && 'bodies' in conditional ? conditional.bodies.length : 0).toBe(5);
  });

  it('refuses them without the option, as before', () => {
    expect(() => parseShellCommand('for f in a; do echo $f; done')).toThrow(ShellSyntaxError);
  });

  it.each(['for f in a; do echo', 'while true; do', 'if a; then b', 'for 1x in a; do b; done', 'done', 'if a; fi'])(
    'refuses the unfinished or malformed %j',
    (source) => {
      expect(() => parseShellCommand(source, controlStructures)).toThrow(ShellSyntaxError);
    },
  );

  it('reads reserved words as arguments where they are arguments', () => {
    const command = parseShellCommand('for x in do done; do echo done; done', controlStructures).list.items[0]?.pipeline
      .commands[0];
    expect(command).toMatchObject({ type: 'for', words: [{ value: 'do' }, { value: 'done' }] });
  });
});
