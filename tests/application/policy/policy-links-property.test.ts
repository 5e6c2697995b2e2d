import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import { seededRandom } from '../../support/seeded-random';

const pick = <T>(random: () => number, from: readonly T[]): T => from[Math.floor(random() * from.length)] as T;

/**
 * Issue 12 §3 as a property: through any sequence of allowed commands, no symbolic link in the workspace comes to
 * resolve outside it. Seeded sequences of link-making and link-carrying commands (ln -s, mv, cp -r/-a/-d/-P,
 * mkdir -p) from three working directories, each judged in trusted mode and, when allowed, run for real; after
 * every step every link in the workspace is resolved by the kernel (or, dangling, by its written target) and must
 * land inside. The workspace starts with links that point inside today but climb with `..` (workspace data).
 */
describe('policy: links never come to point outside, over generated command sequences', () => {
  let base: string;
  let root: string;

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-links-property-')));
    root = path.join(base, 'ws');
  });

  afterEach(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  function resetTree(): void {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'sub', 'deeper'), { recursive: true });
    fs.mkdirSync(path.join(root, 'd'));
    fs.writeFileSync(path.join(root, 'README.md'), 'readme\n');
    fs.symlinkSync('../../README.md', path.join(root, 'sub', 'deeper', 'l'));
    fs.symlinkSync('../README.md', path.join(root, 'sub', 'm'));
    fs.symlinkSync(path.join(root, 'README.md'), path.join(root, 'abs'));
  }

  /** Links in the workspace whose resolution today is outside it. */
  function linksPointingOutside(directory: string = root): string[] {
    const found: string[] = [];
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const entryPath = path.join(directory, entry.name);
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = fs.realpathSync(entryPath);
        } catch {
          target = path.resolve(directory, fs.readlinkSync(entryPath)); // dangling (or a loop): where it is written to go
        }
        if (target !== root && !target.startsWith(`${root}/`))
          found.push(`${path.relative(root, entryPath)} -> ${fs.readlinkSync(entryPath)}`);
      } else if (entry.isDirectory()) {
        found.push(...linksPointingOutside(entryPath));
      }
    }
    return found;
  }

  it('seeded sequences of ln -s, mv, cp -r/-a/-d/-P and mkdir -p, run for real', () => {
    const random = seededRandom(Number(process.env.LINKS_SEED ?? 20261203));
    const names = [
      'sub',
      'sub/deeper',
      'sub/deeper/l',
      'sub/m',
      'l',
      'm',
      'd',
      'd/e',
      '.',
      '..',
      'top',
      'sub/x',
      'deeper',
      'abs',
      'sub/deeper/',
      'new',
      'sub/deeper/.',
      'sub/.',
      'sub/m/',
      'd/.',
    ];
    const targets = ['README.md', '../README.md', 'sub', '../../x', '/etc', 'a/b', 'l', `${base}/ws/README.md`];
    const verbs = ['mv', 'cp -r', 'cp -a', 'cp -d', 'cp -rP', 'cp -R', 'ln -s', 'mkdir -p'];
    const directories = ['', 'sub', 'sub/deeper'];
    let ran = 0;
    for (let sequence = 0; sequence < 30; sequence += 1) {
      resetTree();
      expect(linksPointingOutside()).toEqual([]);
      const steps: string[] = [];
      for (let index = 0; index < 8; index += 1) {
        const verb = pick(random, verbs);
        const command =
          verb === 'mkdir -p'
            ? `${verb} ${pick(random, names)}`
            : verb === 'ln -s'
              ? `${verb} ${pick(random, targets)} ${pick(random, names)}`
              : `${verb} ${pick(random, names)} ${pick(random, names)}`;
        const cwd = path.join(root, pick(random, directories));
        if (!fs.existsSync(cwd)) continue;
        const engine = new DefaultPolicyEngine(new NodePathInspector(root), {
          ...DEFAULT_POLICY_SETTINGS,
          mode: 'trusted',
        });
        const decision = engine.evaluate({ command, cwd });
        steps.push(`${path.relative(root, cwd) || '.'}$ ${command} -> ${decision.verdict} (${decision.matchedRule})`);
        if (decision.verdict !== 'allow' || !decision.launch) continue;
        const launch = decision.launch;
        const [file, ...args] = launch.kind === 'argv' ? launch.argv : ['/bin/sh', '-c', launch.script];
        spawnSync(file as string, args, { cwd, timeout: 10_000, env: { PATH: '/usr/bin:/bin' } });
        ran += 1;
        expect({ steps, outside: linksPointingOutside() }).toEqual({ steps, outside: [] });
      }
    }
    // The sequences do reach the file system: enough allowed steps ran for the property to mean something.
    expect(ran).toBeGreaterThan(40);
  });
});
