import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import { ConfigurationError } from '../../../src/domain/errors';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';
import { PolicyWorkspace } from './policy-workspace';

type Expectation = readonly [verdict: string, risk: string, rule: string, reason: string];

/** [command, inspect, confirm, trusted] with network denied (the default). */
const MODE_MATRIX: readonly (readonly [string, Expectation, Expectation, Expectation])[] = [
  [
    'touch note.txt',
    ['deny', 'blocked', 'write_command', 'write commands are disabled in inspect mode'],
    ['approval_required', 'high', 'write_command', 'command can modify workspace files'],
    ['allow', 'high', 'write_command', 'command can modify workspace files'],
  ],
  [
    'cp README.md copy.md',
    ['deny', 'blocked', 'write_command', 'write commands are disabled in inspect mode'],
    ['approval_required', 'high', 'write_command', 'command can modify workspace files'],
    ['allow', 'high', 'write_command', 'command can modify workspace files'],
  ],
  [
    'ln -s src/a.txt link',
    ['deny', 'blocked', 'write_command', 'write commands are disabled in inspect mode'],
    ['approval_required', 'high', 'write_command', 'command can modify workspace files'],
    ['allow', 'high', 'write_command', 'command can modify workspace files'],
  ],
  [
    'rm -rf .',
    ['deny', 'blocked', 'broad_deletion', 'broad deletion of the workspace is never allowed'],
    ['deny', 'blocked', 'broad_deletion', 'broad deletion of the workspace is never allowed'],
    ['deny', 'blocked', 'broad_deletion', 'broad deletion of the workspace is never allowed'],
  ],
  [
    'git add README.md',
    ['deny', 'blocked', 'git_write', 'git write commands are disabled in inspect mode'],
    ['approval_required', 'high', 'git_write', 'git command modifies repository state'],
    ['allow', 'high', 'git_write', 'git command modifies repository state'],
  ],
  [
    'git branch feature',
    ['deny', 'blocked', 'git_write', 'git write commands are disabled in inspect mode'],
    ['approval_required', 'high', 'git_write', 'git command modifies repository state'],
    ['allow', 'high', 'git_write', 'git command modifies repository state'],
  ],
  [
    'npm test',
    ['deny', 'blocked', 'development_command', 'development commands require confirm or trusted mode'],
    ['approval_required', 'medium', 'development_command', 'development command may execute project-defined code'],
    ['allow', 'medium', 'development_command', 'development command may execute project-defined code'],
  ],
  [
    'npm install',
    ['deny', 'blocked', 'development_command', 'development commands require confirm or trusted mode'],
    ['deny', 'blocked', 'network_dependency_operation', 'network-capable dependency operations are disabled'],
    ['deny', 'blocked', 'network_dependency_operation', 'network-capable dependency operations are disabled'],
  ],
  [
    'sleep 5',
    ['approval_required', 'medium', 'long_running_process', 'long-running process requires an explicit approval'],
    ['approval_required', 'medium', 'long_running_process', 'long-running process requires an explicit approval'],
    ['allow', 'medium', 'long_running_process', 'long-running process requires an explicit approval'],
  ],
  [
    'ls && touch x',
    ['deny', 'blocked', 'write_command', 'write commands are disabled in inspect mode'],
    ['approval_required', 'high', 'write_command', 'command can modify workspace files'],
    ['allow', 'high', 'write_command', 'command can modify workspace files'],
  ],
];

describe('policy engine: modes', () => {
  let workspace: PolicyWorkspace;

  beforeEach(() => {
    workspace = new PolicyWorkspace();
  });

  afterEach(() => {
    workspace.cleanup();
  });

  it.each(MODE_MATRIX)('judges %j per mode (inspect, confirm, trusted)', (command, ...expected) => {
    (['inspect', 'confirm', 'trusted'] as PolicyMode[]).forEach((mode, index) => {
      const decision = workspace.evaluate(command, { mode });
      expect([decision.verdict, decision.risk, decision.matchedRule, decision.reasons[0]]).toEqual(expected[index]);
    });
  });

  it('allows network dependency operations only with allow_network', () => {
    for (const command of ['npm install', 'pnpm add x', 'yarn', 'cargo fetch', 'go get x', 'uv sync']) {
      expect(workspace.evaluate(command, { mode: 'confirm' }).matchedRule).toBe('network_dependency_operation');
      expect(workspace.evaluate(command, { mode: 'confirm', allowNetwork: true })).toMatchObject({
        verdict: 'approval_required',
        risk: 'medium',
        matchedRule: 'development_command',
        preview: { networkRequested: true, executesProjectCode: true },
      });
    }
  });

  it('gives the strictest part its say in a compound line', () => {
    const decision = workspace.evaluate('ls && sleep 1 && echo done > log.txt', { mode: 'confirm' });
    expect(decision.verdict).toBe('approval_required');
    expect(decision.risk).toBe('high');
    expect(decision.matchedRule).toBe('write_command');
    expect(decision.reasons).toEqual([
      'command can modify workspace files',
      'long-running process requires an explicit approval',
    ]);
    expect(decision.parts.map((part) => part.verdict)).toEqual(['allow', 'approval_required', 'approval_required']);
  });
});

describe('policy engine: policy settings', () => {
  let workspace: PolicyWorkspace;

  beforeEach(() => {
    workspace = new PolicyWorkspace();
  });

  afterEach(() => {
    workspace.cleanup();
  });

  it('treats extra read-only commands like cat, paths still confined', () => {
    expect(workspace.evaluate('jq . README.md', { extraReadOnlyCommands: ['jq'] })).toMatchObject({
      verdict: 'allow',
      matchedRule: 'read_only_command',
      launch: { kind: 'argv', argv: ['/usr/bin/jq', '.', 'README.md'] },
    });
    expect(workspace.evaluate('jq . /etc/passwd', { extraReadOnlyCommands: ['jq'] }).matchedRule).toBe('path_escape');
  });

  it('denies commands listed as denied, even read-only ones', () => {
    expect(workspace.evaluate('cat README.md', { deniedCommands: ['cat'] })).toMatchObject({
      verdict: 'deny',
      matchedRule: 'policy_denied_command',
      reasons: ['cat is denied by the policy file'],
    });
  });

  it('requires approval for listed commands in every mode, and makes unknown listed commands approvable', () => {
    expect(workspace.evaluate('ls', { mode: 'trusted', approvalCommands: ['ls'] })).toMatchObject({
      verdict: 'approval_required',
      matchedRule: 'policy_requires_approval',
      reasons: ['the policy file requires approval for ls', 'read-only command'],
    });
    expect(workspace.evaluate('htop', { approvalCommands: ['htop'] })).toMatchObject({
      verdict: 'approval_required',
      risk: 'medium',
      matchedRule: 'policy_requires_approval',
    });
    expect(workspace.evaluate('touch x', { approvalCommands: ['touch'] }).verdict).toBe('deny');
  });

  it('refuses settings that weaken the hard floor', () => {
    const inspector = new NodePathInspector(workspace.root);
    expect(
      () => new DefaultPolicyEngine(inspector, { ...DEFAULT_POLICY_SETTINGS, extraReadOnlyCommands: ['bash'] }),
    ).toThrow(ConfigurationError);
    expect(
      () => new DefaultPolicyEngine(inspector, { ...DEFAULT_POLICY_SETTINGS, approvalCommands: ['curl'] }),
    ).toThrow(
      'policy settings approvalCommands[0]: curl is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be approved',
    );
  });
});
