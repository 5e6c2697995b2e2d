import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import type { LaunchForm } from '../../../src/domain/policy/policy-types';

/** Runs a launch form the way the executor does: argv without a shell, or the fixed `/bin/sh -c`. */
function run(launch: LaunchForm | undefined, cwd: string): string {
  if (!launch) throw new Error('expected a launch form');
  const [file, ...args] = launch.kind === 'argv' ? launch.argv : ['/bin/sh', '-c', launch.script];
  return execFileSync(file as string, args, { cwd, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
}

describe('policy engine: launch forms against the real shell', () => {
  let root: string;
  let engine: DefaultPolicyEngine;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-launch-')));
    fs.writeFileSync(path.join(root, 'notes.txt'), 'alpha\nbeta\ngamma\n');
    engine = new DefaultPolicyEngine(new NodePathInspector(root), {
      mode: 'trusted',
      allowNetwork: false,
      extraReadOnlyCommands: [],
      deniedCommands: [],
      approvalCommands: [],
    });
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  // Each argument list is judged as printf's words; the argv the engine builds must equal what sh would pass.
  it.each([
    `'a b' "c d"`,
    'e\\ f',
    `"a\\"b"`,
    `'it'\\''s'`,
    `"\\$x" "\\\\" "a\\b"`,
    `a"b"'c'`,
    `"line\none"`,
    `'\\n' "$" a$ "a\\$b"`,
    `"tab\there" é --x=1`,
    `'$(not run)' '\`nor this\`'`,
  ])('builds the same argv as /bin/sh for printf %s', (args) => {
    const command = `printf '[%s]\\n' ${args}`;
    const decision = engine.evaluate({ command, cwd: root });
    expect(decision.verdict).toBe('allow');
    expect(decision.launch?.kind).toBe('argv');
    expect(run(decision.launch, root)).toBe(execFileSync('/bin/sh', ['-c', command], { cwd: root, encoding: 'utf8' }));
  });

  it('runs a rewritten compound line through /bin/sh with the same result', () => {
    const command = 'grep -c a notes.txt && cat notes.txt | sort -r | head -n 1; echo "$(wc -l < notes.txt)" lines';
    const decision = engine.evaluate({ command, cwd: root });
    expect(decision.verdict).toBe('approval_required');
    expect(decision.launch?.kind).toBe('shell');
    expect(run(decision.launch, root)).toBe('3\ngamma\n3 lines\n');
  });

  it('names every executable by its trusted path in the shell script', () => {
    const decision = engine.evaluate({ command: 'cat notes.txt | grep beta', cwd: root });
    const script = decision.launch?.kind === 'shell' ? decision.launch.script : '';
    expect(script).toMatch(/^'\/[^']+\/cat' notes\.txt \| '\/[^']+\/grep' beta$/);
    expect(run(decision.launch, root)).toBe('beta\n');
  });

  it('writes through a redirection only where the plan says', () => {
    const decision = engine.evaluate({ command: 'echo hi > out.txt', cwd: root });
    expect(decision.preview.filesPotentiallyTouched).toEqual(['out.txt']);
    run(decision.launch, root);
    expect(fs.readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('hi\n');
  });
});
