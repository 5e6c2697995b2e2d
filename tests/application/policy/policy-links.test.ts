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
    const engine = new DefaultPolicyEngine(new NodePathInspector(workspace.root), {
      ...DEFAULT_POLICY_SETTINGS,
      mode: 'trusted',
    });
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
    expect(step('ln -s ../README.md up.txt', path.join(workspace.root, 'sub', 'deeper'))).toMatchObject({
      verdict: 'deny',
      matchedRule: 'symlink_target',
    });
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
    expect(step(`ln -s ${workspace.root}/README.md abs`, path.join(workspace.root, 'src'))).toMatchObject({
      verdict: 'allow',
    });
  });

  it('copying or moving into a directory checks the file that results: a planted link there is not written through', () => {
    fs.mkdirSync(path.join(workspace.root, 'sub'));
    fs.symlinkSync('../../ws-evil/x', path.join(workspace.root, 'sub', 'README.md')); // workspace data, not made by the model
    for (const command of [
      'cp README.md sub/',
      'cp README.md sub',
      'mv README.md sub/',
      'cp -r src README.md sub',
      'cp README.md sub/README.md',
    ]) {
      expect(step(command)).toMatchObject({ verdict: 'deny', matchedRule: 'path_escape' });
    }
    expect(step('cp README.md src/')).toMatchObject({ verdict: 'allow' });
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret\n');
  });

  /** Every symbolic link in the workspace (but the fixture's etc-link) whose target today is outside it. */
  function linksPointingOutside(directory: string = workspace.root): string[] {
    const found: string[] = [];
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const entryPath = path.join(directory, entry.name);
      if (entry.isSymbolicLink()) {
        if (entryPath === path.join(workspace.root, 'etc-link')) continue;
        const target = path.resolve(directory, fs.readlinkSync(entryPath));
        if (target !== workspace.root && !target.startsWith(`${workspace.root}/`))
          found.push(path.relative(workspace.root, entryPath));
      } else if (entry.isDirectory()) {
        found.push(...linksPointingOutside(entryPath));
      }
    }
    return found;
  }

  it('links carried by cp -r, cp -a, cp -d and mv are judged where they land: none comes to point outside', () => {
    // Workspace data (a checkout could bring it): from sub/deeper/, ../../README.md is the workspace's README.
    fs.mkdirSync(path.join(workspace.root, 'sub', 'deeper'), { recursive: true });
    fs.symlinkSync('../../README.md', path.join(workspace.root, 'sub', 'deeper', 'l'));
    fs.mkdirSync(path.join(workspace.root, 'deep', 'er'), { recursive: true });
    fs.mkdirSync(path.join(workspace.root, 'd'));
    const sequence: [string, 'allow' | 'deny', string?][] = [
      // One level up, ../../README.md leaves the workspace (it would read or be written through at <base>/README.md).
      ['cp -r sub/deeper d2', 'deny', 'symlink_target'],
      ['cp -a sub/deeper d2', 'deny', 'symlink_target'],
      ['cp -R sub/deeper .', 'deny', 'symlink_target'],
      ['cp -rP sub/deeper d2', 'deny', 'symlink_target'],
      ['cp --recursive sub/deeper d2', 'deny', 'symlink_target'],
      ['mv sub/deeper d2', 'deny', 'symlink_target'],
      ['cp -d sub/deeper/l l2', 'deny', 'symlink_target'],
      ['mv sub/deeper/l l3', 'deny', 'symlink_target'],
      ['cp -r sub/deeper/ d2', 'deny', 'symlink_target'],
      // Contents carried straight into an existing directory: they land one level higher than `sub/deeper/...`.
      ['cp -r sub/deeper/. d', 'deny', 'symlink_target'],
      ['cp -a sub/deeper/. .', 'deny', 'symlink_target'],
      // -t DIR is the destination written first (read through cp's option table): judged where it lands.
      ['cp -t . -r sub/deeper', 'deny', 'symlink_target'],
      ['cp --target=. -r sub/deeper', 'deny', 'symlink_target'],
      ['cp -rT sub/deeper deep', 'deny', 'target_directory'],
      ['mv -t . sub/deeper', 'deny', 'symlink_target'],
      // Landing as deep as it was, or deeper, keeps the link inside: allowed, and run.
      ['cp -r sub/deeper sub/other', 'allow'],
      ['cp -r sub deep/er', 'allow'],
      ['mv sub/other deep/moved', 'allow'],
      // Carried again later: judged again where it would land.
      ['mv deep/moved top', 'deny', 'symlink_target'],
      ['cp -a deep/er/sub/deeper .', 'deny', 'symlink_target'],
      // Without -r/-a/-d/-P cp follows the link: the copy is a plain file with the README's content.
      ['cp sub/deeper/l copy', 'allow'],
    ];
    for (const [command, verdict, rule] of sequence) {
      const decision = step(command);
      expect({ command, verdict: decision.verdict, rule: decision.matchedRule }).toEqual({
        command,
        verdict,
        rule: rule ?? decision.matchedRule,
      });
      expect({ command, outside: linksPointingOutside() }).toEqual({ command, outside: [] });
    }
    for (const refused of ['d2', 'top', 'l2', 'l3'])
      expect(fs.existsSync(path.join(workspace.root, refused))).toBe(false);
    expect(fs.readlinkSync(path.join(workspace.root, 'deep', 'er', 'sub', 'deeper', 'l'))).toBe('../../README.md');
    expect(fs.lstatSync(path.join(workspace.root, 'copy')).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(workspace.root, 'copy'), 'utf8')).toBe('# readme\n');
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret\n');
  });

  it('an absolute link to outside is not carried, and a tree too large to read within one evaluation is refused', () => {
    fs.mkdirSync(path.join(workspace.root, 'held'));
    fs.symlinkSync(outside, path.join(workspace.root, 'held', 'abs'));
    expect(step('cp -r held copy')).toMatchObject({ verdict: 'deny', matchedRule: 'symlink_target' });
    expect(step('mv held/abs abs')).toMatchObject({ verdict: 'deny' }); // the operand itself resolves outside: path_escape
    fs.rmSync(path.join(workspace.root, 'held', 'abs'));
    fs.symlinkSync(path.join(workspace.root, 'README.md'), path.join(workspace.root, 'held', 'abs'));
    expect(step('cp -r held copy')).toMatchObject({ verdict: 'allow' });
    fs.mkdirSync(path.join(workspace.root, 'big'));
    for (let index = 0; index <= 10_000; index += 1)
      fs.writeFileSync(path.join(workspace.root, 'big', `f${index}`), '');
    expect(step('cp -r big big2')).toMatchObject({ verdict: 'deny', matchedRule: 'tree_too_large' });
    expect(step('cp big/f1 big/f2')).toMatchObject({ verdict: 'allow' });
  });
});
