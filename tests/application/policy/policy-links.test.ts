import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PolicyDecision } from '../../../src/domain/policy/policy-types';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import { PolicyWorkspace } from './policy-workspace';

/**
 * Links never end up pointing outside: multi-step sequences a model could send, each step judged in trusted mode
 * (the most permissive) and, when allowed, run for real. The file outside the workspace must stay untouched.
 */
describe('policy: symbolic links through sequences of allowed commands', () => {
  let workspace: PolicyWorkspace;
  let outside: string;

  beforeEach(() => {
    workspace = new PolicyWorkspace();
    outside = path.join(workspace.base, 'ws-evil', 'x');
  });

  afterEach(() => {
    workspace.cleanup();
  });

  function step(command: string, cwd: string = workspace.root): PolicyDecision {
    const engine = new DefaultPolicyEngine(new NodePathInspector(workspace.root), { ...DEFAULT_POLICY_SETTINGS, mode: 'trusted' });
    const decision = engine.evaluate({ command, cwd });
    if (decision.verdict === 'allow' && decision.launch) {
      const launch = decision.launch;
      const [file, ...args] = launch.kind === 'argv' ? launch.argv : ['/bin/sh', '-c', launch.script];
      spawnSync(file as string, args, { cwd, timeout: 10_000, env: { PATH: '/usr/bin:/bin' } });
    }
    return decision;
  }

  it('a link made inside a subdirectory with .. cannot be made, so moving it up cannot point it outside', () => {
    expect(step('mkdir -p sub/deeper')).toMatchObject({ verdict: 'allow' });
    // From sub/, ../../ws-evil/x is outside already; ../README.md is inside today but not after a move.
    expect(step('ln -s ../../ws-evil/x a.txt', path.join(workspace.root, 'sub'))).toMatchObject({ verdict: 'deny' });
    expect(step('ln -s ../README.md up.txt', path.join(workspace.root, 'sub', 'deeper'))).toMatchObject({ verdict: 'deny', matchedRule: 'symlink_target' });
    expect(step('ln -s sub/../README.md r')).toMatchObject({ verdict: 'deny', matchedRule: 'symlink_target' });
    step('mv sub/a.txt a.txt'); // allowed or not, there is no link to move
    expect(step('cp README.md a.txt')).toMatchObject({ verdict: 'allow' });
    expect(fs.lstatSync(path.join(workspace.root, 'a.txt')).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret\n');
  });

  it('a link without .. stays inside wherever it is moved', () => {
    expect(step('ln -s a.txt link', path.join(workspace.root, 'src'))).toMatchObject({ verdict: 'allow' });
    expect(fs.readlinkSync(path.join(workspace.root, 'src', 'link'))).toBe('a.txt');
    expect(step('mv src/link link')).toMatchObject({ verdict: 'allow' });
    expect(step(`ln -s ${workspace.root}/README.md abs`, path.join(workspace.root, 'src'))).toMatchObject({ verdict: 'allow' });
  });

  it('copying or moving into a directory checks the file that results: a planted link there is not written through', () => {
    fs.mkdirSync(path.join(workspace.root, 'sub'));
    fs.symlinkSync('../../ws-evil/x', path.join(workspace.root, 'sub', 'README.md')); // workspace data, not made by the model
    for (const command of ['cp README.md sub/', 'cp README.md sub', 'mv README.md sub/', 'cp -r src README.md sub', 'cp README.md sub/README.md']) {
      expect(step(command)).toMatchObject({ verdict: 'deny', matchedRule: 'path_escape' });
    }
    expect(step('cp README.md src/')).toMatchObject({ verdict: 'allow' });
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret\n');
  });
});
