import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import type { LaunchForm } from '../../../src/domain/policy/policy-types';
import { seededRandom } from '../../support/seeded-random';

function randomLine(random: () => number, tokens: readonly string[], prefix: string, maxTokens: number): string {
  let line = prefix;
  const count = 1 + Math.floor(random() * maxTokens);
  for (let index = 0; index < count; index += 1)
    line += `${tokens[Math.floor(random() * tokens.length)]}${random() < 0.7 ? ' ' : ''}`;
  return line;
}

function run(launch: LaunchForm, cwd: string) {
  const [file, ...args] = launch.kind === 'argv' ? launch.argv : ['/bin/sh', '-c', launch.script];
  return spawnSync(file as string, args, {
    cwd,
    encoding: 'utf8',
    timeout: 5000,
    input: '',
    env: { PATH: '/usr/bin:/bin', HOME: cwd },
  });
}

describe('policy engine: properties over generated lines', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-property-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
  });

  afterEach(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  function resetTree(): void {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'in'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'f'), 'canary');
    fs.writeFileSync(path.join(root, 'x'), 'x');
    fs.symlinkSync(outside, path.join(root, 'link'));
    fs.symlinkSync(path.join(outside, 'new'), path.join(root, 'dangling'));
  }

  function outsideState(): string {
    const entries = fs
      .readdirSync(outside)
      .map((name) => `${name}:${fs.readFileSync(path.join(outside, name), 'utf8')}`);
    return `${fs.readdirSync(base).join(',')}|${entries.join(',')}`;
  }

  it('never lets an allowed line (trusted mode) change anything outside the workspace', () => {
    const tokens = [
      'ls',
      'cat',
      'echo',
      'touch',
      'mkdir -p',
      'rm -rf',
      'cp -r',
      'mv',
      'tee',
      'ln -s',
      'chmod 700',
      'sort -o',
      'uniq',
      '>',
      '>>',
      '2>',
      '<',
      '|',
      ';',
      '&&',
      'x',
      'y',
      'in',
      'in/..',
      'in/../..',
      '.',
      '..',
      '../outside',
      '../outside/f',
      'link',
      'link/f',
      'dangling',
      '"../outside/q"',
      '--',
      '-t',
      '--target-directory=../outside',
      'sub/../../outside',
    ];
    const random = seededRandom(20260728);
    const engine = new DefaultPolicyEngine(new NodePathInspector((resetTree(), root)), {
      ...DEFAULT_POLICY_SETTINGS,
      mode: 'trusted',
    });
    let executed = 0;
    for (let attempt = 0; attempt < 600 && executed < 50; attempt += 1) {
      const line = randomLine(random, tokens, '', 6);
      const decision = engine.evaluate({ command: line, cwd: root });
      if (decision.verdict === 'deny' || !decision.launch) continue;
      resetTree();
      const before = outsideState();
      run(decision.launch, root);
      executed += 1;
      expect({ line, outside: outsideState() }).toEqual({ line, outside: before });
    }
    expect(executed).toBe(50);
  });

  it('builds exactly the words /bin/sh would for every allowed printf line', () => {
    const tokens = [
      'a',
      'b c',
      '"',
      "'",
      '\\',
      '$',
      '(',
      ')',
      '`',
      ';',
      '|',
      '&',
      '<',
      '>',
      '#',
      '*',
      '{',
      '}',
      ',',
      '~',
      '\n',
      '=',
      '!',
      '\t',
      '.',
      '-',
      '1',
      '[',
      ']',
      '?',
    ];
    const random = seededRandom(42);
    fs.mkdirSync(root);
    const engine = new DefaultPolicyEngine(new NodePathInspector(root), {
      ...DEFAULT_POLICY_SETTINGS,
      mode: 'trusted',
    });
    let compared = 0;
    for (let attempt = 0; attempt < 800 && compared < 40; attempt += 1) {
      const line = randomLine(random, tokens, "printf '[%s]\\n' ", 10);
      const decision = engine.evaluate({ command: line, cwd: root });
      if (decision.verdict === 'deny' || !decision.launch) continue;
      const shell = spawnSync('/bin/sh', ['-c', line], {
        cwd: root,
        encoding: 'utf8',
        timeout: 5000,
        input: '',
        env: { PATH: '/usr/bin:/bin' },
      });
      expect({ line, stdout: run(decision.launch, root).stdout }).toEqual({ line, stdout: shell.stdout });
      compared += 1;
      for (const name of fs.readdirSync(root)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
    }
    expect(compared).toBe(40);
  });
});
