import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS, type PolicySettings } from '../../../src/application/policy/policy-settings';
import type { LinkListing, PathFacts, PathInspector } from '../../../src/domain/policy/path-inspector';
import type { PolicyDecision } from '../../../src/domain/policy/policy-types';

/**
 * Executables the tests pretend are installed in /usr/bin, so verdicts do not depend on what the host has
 * (rg, tree, npm, yarn...). Path resolution stays real (NodePathInspector on a real temp directory).
 */
const INSTALLED = new Set([
  'cat',
  'df',
  'du',
  'find',
  'git',
  'grep',
  'head',
  'ls',
  'pwd',
  'rg',
  'stat',
  'tail',
  'wc',
  'echo',
  'printf',
  'true',
  'false',
  'sort',
  'uniq',
  'cut',
  'tr',
  'basename',
  'dirname',
  'date',
  'whoami',
  'id',
  'uname',
  'which',
  'file',
  'diff',
  'cmp',
  'tree',
  'nl',
  'tac',
  'rev',
  'sha256sum',
  'md5sum',
  'test',
  '[',
  'cp',
  'mkdir',
  'mv',
  'rm',
  'touch',
  'tee',
  'ln',
  'chmod',
  'cargo',
  'go',
  'make',
  'npm',
  'pnpm',
  'pytest',
  'ruff',
  'uv',
  'yarn',
  'sleep',
  'jq',
  'htop',
]);

export class InstalledToolsInspector implements PathInspector {
  private readonly real: NodePathInspector;

  constructor(root: string) {
    this.real = new NodePathInspector(root);
  }

  get root(): string {
    return this.real.root;
  }

  resolve(cwd: string, token: string): PathFacts {
    return this.real.resolve(cwd, token);
  }

  findExecutable(name: string): string | null {
    return INSTALLED.has(name) ? `/usr/bin/${name}` : null;
  }

  listLinks(absolute: string, maxEntries: number): LinkListing {
    return this.real.listLinks(absolute, maxEntries);
  }
}

/**
 * A real workspace `<base>/ws` with README.md, src/a.txt, a symlink `etc-link` to /etc, a symlink `inner-link`
 * to src, and a prefix sibling `<base>/ws-evil/x` outside it.
 */
export class PolicyWorkspace {
  readonly base: string;
  readonly root: string;

  constructor() {
    this.base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-policy-')));
    this.root = path.join(this.base, 'ws');
    fs.mkdirSync(path.join(this.root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(this.root, 'README.md'), '# readme\n');
    fs.writeFileSync(path.join(this.root, 'src', 'a.txt'), 'foo\n');
    fs.symlinkSync('/etc', path.join(this.root, 'etc-link'));
    fs.symlinkSync('src', path.join(this.root, 'inner-link'));
    fs.mkdirSync(path.join(this.base, 'ws-evil'));
    fs.writeFileSync(path.join(this.base, 'ws-evil', 'x'), 'secret\n');
  }

  engine(settings: Partial<PolicySettings> = {}): DefaultPolicyEngine {
    return new DefaultPolicyEngine(new InstalledToolsInspector(this.root), { ...DEFAULT_POLICY_SETTINGS, ...settings });
  }

  evaluate(command: string, settings: Partial<PolicySettings> = {}, cwd: string = this.root): PolicyDecision {
    return this.engine(settings).evaluate({ command, cwd });
  }

  cleanup(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}
