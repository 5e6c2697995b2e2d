import { ProcessLimitReached, SessionNotFound } from '../../domain/execution/execution-errors.js';
import type { CommandConfinement } from '../../domain/execution/command-confinement.js';
import type { ExecutionSession, RunningCommand } from '../../domain/execution/execution-session.js';
import type { CommandLaunch, ExecutionEvent } from '../../domain/execution/execution-types.js';
import type { NonInteractiveEnvironment } from '../../domain/execution/non-interactive-environment.js';
import { settledWithin } from '../../application/timing/within.js';
import { ChildProcessRunningCommand, type CommandEventSink } from './child-process-running-command.js';
import { scrubEnvironment } from './scrubbed-environment.js';
import type { SpoolSettings } from './stream-spool.js';
import { PtyTerminal } from './pty-terminal.js';
import { scriptLaunch, terminalEnvironment } from './pty-launch.js';

export interface ChildProcessSessionOptions {
  readonly id: string;
  readonly cwd: string;
  /** Commands running (or paused) at once. The seed allows one. */
  readonly maxProcesses: number;
  /** Finished commands kept for reading their output; older ones are forgotten. */
  readonly maxKeptCommands: number;
  readonly killGraceMs: number;
  readonly outputSettleMs: number;
  /** Only the allowlisted variables of it reach a command (see `scrubEnvironment`). */
  readonly serverEnv: Readonly<Record<string, string | undefined>>;
  /** Pager, editor and prompt settings so that no command waits for a person (policy file `environment`). */
  readonly nonInteractive?: NonInteractiveEnvironment;
  /** Every command is launched through it, one confinement (sandbox) per command. */
  readonly confinement: CommandConfinement;
  readonly now: () => number;
  readonly newCommandId: () => string;
  /** Where commands keep their whole output (see `StreamSpool`); without it, only the capped capture is kept. */
  readonly spool?: SpoolSettings;
}

/** Upper bound on how long `close` waits for outcomes once the groups are dead (pipes closing, exit events). */
const CLOSE_SETTLE_MS = 2000;

/** An execution session whose commands are child processes, each the leader of its own process group. */
export class ChildProcessExecutionSession implements ExecutionSession {
  readonly id: string;
  readonly createdAt: string;
  readonly cwd: string;
  private readonly history: ChildProcessRunningCommand[] = [];
  private readonly listeners = new Set<(event: ExecutionEvent) => void>();
  /** Kills of evicted commands' lingering groups, awaited by `close`. */
  private readonly pendingKills = new Set<Promise<void>>();
  private lastActivity: number;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ChildProcessSessionOptions) {
    this.id = options.id;
    this.cwd = options.cwd;
    this.lastActivity = options.now();
    this.createdAt = new Date(this.lastActivity).toISOString();
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  lastActivityMs(): number {
    return this.lastActivity;
  }

  touch(): void {
    this.lastActivity = this.options.now();
  }

  start(launch: CommandLaunch, commandText: string): RunningCommand {
    if (this.closed) throw new SessionNotFound(this.id);
    const running = this.history.filter((command) => !command.ended).length;
    if (running >= this.options.maxProcesses) throw new ProcessLimitReached(this.options.maxProcesses);
    // Throws SandboxUnavailable before anything starts: the command is refused, never run unconfined.
    const { terminal: size } = launch;
    const environment = scrubEnvironment(this.options.serverEnv, launch.cwd, this.cwd, this.options.nonInteractive);
    // A terminal session: `script` opens the pseudo-terminal inside the confinement (docs/terminal-sessions.md).
    const confined = this.options.confinement.confine({
      launch: size ? scriptLaunch(launch.launch, size) : launch.launch,
      cwd: launch.cwd,
      environment: size ? interactiveEnvironment(environment) : environment,
    });
    this.touch();
    const terminal = size ? new PtyTerminal(size) : undefined;
    const command = new ChildProcessRunningCommand({
      terminal,
      id: this.options.newCommandId(),
      sessionId: this.id,
      // The terminal's keyboard is the launcher's stdin.
      launch: size ? { ...launch, stdin: 'open' } : launch,
      commandText,
      confined,
      killGraceMs: this.options.killGraceMs,
      outputSettleMs: this.options.outputSettleMs,
      now: this.options.now,
      events: this.eventSink(),
      ...(this.options.spool === undefined ? {} : { spool: this.options.spool }),
      ...(terminal ? { onStdout: (chunk: Buffer) => terminal.output(chunk) } : {}),
    });
    terminal?.attach(command);
    this.history.push(command);
    this.forgetOldCommands();
    return command;
  }

  command(commandId: string): RunningCommand | undefined {
    return this.history.find((command) => command.id === commandId);
  }

  commands(): readonly RunningCommand[] {
    return [...this.history];
  }

  subscribe(listener: (event: ExecutionEvent) => void): () => void {
    if (this.closed) return () => undefined;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: ExecutionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a dropped SSE stream, say) must not stop the command or the other subscribers.
      }
    }
  }

  /**
   * Kills every process group this session started, then reports `session_closed`. Idempotent; `promptly` also
   * hurries a close already under way (see `ExecutionSession.close`).
   */
  close(options: { readonly promptly?: boolean } = {}): Promise<void> {
    this.closing ??= this.shutDown();
    if (options.promptly) for (const command of this.history) command.settleGroupCheckNow();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    await Promise.all([...this.history.map((command) => command.terminate('cancelled')), ...this.pendingKills]);
    // The groups are gone; let the exit and pipe-close events land so `command_finished` precedes `session_closed`.
    await settledWithin(Promise.all(this.history.map((command) => command.finished())), CLOSE_SETTLE_MS);
    this.publish({ type: 'session_closed', sessionId: this.id, at: new Date(this.options.now()).toISOString() });
    this.listeners.clear();
  }

  private eventSink(): CommandEventSink {
    return {
      publish: (event) => this.publish(event),
      hasListeners: () => this.listeners.size > 0,
      commandFinished: () => this.touch(),
    };
  }

  /** Bounds memory: drops the oldest finished commands beyond the cap, killing any group they left behind. */
  private forgetOldCommands(): void {
    while (this.history.length > this.options.maxKeptCommands) {
      const index = this.history.findIndex((command) => command.ended);
      if (index < 0) return;
      const [forgotten] = this.history.splice(index, 1);
      if (!forgotten) return;
      const kill = forgotten.terminate('cancelled');
      this.pendingKills.add(kill);
      void kill.then(() => this.pendingKills.delete(kill));
    }
  }
}

/**
 * A terminal session has a terminal: pagers and editors work there (`git rebase -i` opens its editor), so the
 * non-interactive pager and editor settings are left out. Git still never prompts for credentials
 * (GIT_TERMINAL_PROMPT=0): a secret is not something the model should be asked to type.
 */
function interactiveEnvironment(environment: Record<string, string>): Record<string, string> {
  const { PAGER: _pager, GIT_PAGER: _gitPager, GIT_EDITOR: _gitEditor, EDITOR: _editor, ...rest } = environment;
  return { ...rest, ...terminalEnvironment() };
}
