import type { PathFacts, PathInspector } from '../../domain/policy/path-inspector.js';

/**
 * Remembers path facts for the span of one evaluation. A line is judged as one snapshot of the file system
 * anyway, and the same names come back (the working directory for every command, `ls` in `ls;ls;ls`, repeated
 * operands), so each is looked up once per line instead of once per use. Never shared between evaluations: the
 * execute-time re-check gets a fresh one and sees the file system as it is then.
 */
export class MemoizedPathInspector implements PathInspector {
  private readonly resolved = new Map<string, PathFacts>();
  private readonly executables = new Map<string, string | null>();

  constructor(private readonly inner: PathInspector) {}

  get root(): string {
    return this.inner.root;
  }

  resolve(cwd: string, token: string): PathFacts {
    const key = `${cwd}\0${token}`;
    let facts = this.resolved.get(key);
    if (facts === undefined) {
      facts = this.inner.resolve(cwd, token);
      this.resolved.set(key, facts);
    }
    return facts;
  }

  findExecutable(name: string): string | null {
    if (!this.executables.has(name)) this.executables.set(name, this.inner.findExecutable(name));
    return this.executables.get(name) ?? null;
  }
}
