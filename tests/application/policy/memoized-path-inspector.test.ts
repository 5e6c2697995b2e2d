import fs from 'node:fs';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { MemoizedPathInspector } from '../../../src/application/policy/memoized-path-inspector';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import type { PathFacts, PathInspector } from '../../../src/domain/policy/path-inspector';
import { PolicyWorkspace } from './policy-workspace';

/** Counts the lookups that reach the real file system. */
class CountingInspector implements PathInspector {
  resolves = 0;
  lookups = 0;

  constructor(private readonly real: NodePathInspector) {}

  get root(): string {
    return this.real.root;
  }

  resolve(cwd: string, token: string): PathFacts {
    this.resolves += 1;
    return this.real.resolve(cwd, token);
  }

  findExecutable(name: string): string | null {
    this.lookups += 1;
    return this.real.findExecutable(name);
  }
}

describe('path facts remembered for one evaluation only', () => {
  let workspace: PolicyWorkspace;

  beforeEach(() => {
    workspace = new PolicyWorkspace();
  });

  afterEach(() => {
    workspace.cleanup();
  });

  it('looks each path and executable up once per line', () => {
    const counting = new CountingInspector(new NodePathInspector(workspace.root));
    const memo = new MemoizedPathInspector(counting);
    expect(memo.resolve(workspace.root, 'README.md')).toEqual(memo.resolve(workspace.root, 'README.md'));
    expect(memo.findExecutable('ls')).toBe(memo.findExecutable('ls'));
    memo.findExecutable('no-such-tool-x');
    memo.findExecutable('no-such-tool-x');
    expect(counting).toMatchObject({ resolves: 1, lookups: 2 });

    const engine = new DefaultPolicyEngine(counting, DEFAULT_POLICY_SETTINGS);
    counting.resolves = 0;
    counting.lookups = 0;
    expect(engine.evaluate({ command: 'ls;'.repeat(100), cwd: workspace.root }).verdict).toBe('allow');
    expect(counting.lookups).toBe(1);
    expect(counting.resolves).toBeLessThan(5);
  });

  it('sees the file system afresh at every evaluation: a file turned into a link out is caught next time', () => {
    const engine = new DefaultPolicyEngine(new NodePathInspector(workspace.root), DEFAULT_POLICY_SETTINGS);
    expect(engine.evaluate({ command: 'cat README.md', cwd: workspace.root }).verdict).toBe('allow');
    fs.rmSync(path.join(workspace.root, 'README.md'));
    fs.symlinkSync(path.join(workspace.base, 'ws-evil', 'x'), path.join(workspace.root, 'README.md'));
    expect(engine.evaluate({ command: 'cat README.md', cwd: workspace.root })).toMatchObject({
      verdict: 'deny',
      matchedRule: 'path_escape',
    });
  });
});
