import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import type { ExecutionSession } from '../../../src/domain/execution/execution-session';
import type { ExecutionEvent } from '../../../src/domain/execution/execution-types';
import type { TerminalEvents } from '../../../src/domain/terminal/terminal-events';
import { sandboxFor } from '../../support/sandbox';

/** Real child-process sessions in one directory, behind the `TerminalEvents` port, counting live subscriptions. */
export class CountingTerminalEvents implements TerminalEvents {
  readonly sessions = new Map<string, ExecutionSession>();
  subscriptions = 0;
  private readonly factory: ChildProcessSessionFactory;
  private next = 0;

  constructor(private readonly cwd: string) {
    this.factory = new ChildProcessSessionFactory({ confinement: sandboxFor(cwd) });
  }

  create(): string {
    this.next += 1;
    const session = this.factory.create({ id: `session-${this.next}`, cwd: this.cwd });
    this.sessions.set(session.id, session);
    return session.id;
  }

  async close(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    await session?.close();
  }

  subscribe(sessionId: string, listener: (event: ExecutionEvent) => void): (() => void) | undefined {
    const session = this.sessions.get(sessionId);
    if (!session) return undefined;
    this.subscriptions += 1;
    const unsubscribe = session.subscribe(listener);
    return () => {
      this.subscriptions -= 1;
      unsubscribe();
    };
  }

  publish(event: ExecutionEvent): void {
    this.sessions.get(event.sessionId)?.publish(event);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((sessionId) => this.close(sessionId)));
  }
}
