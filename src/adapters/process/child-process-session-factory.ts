import { randomUUID } from 'node:crypto';
import type { CommandConfinement } from '../../domain/execution/command-confinement.js';
import type { ExecutionSession, ExecutionSessionFactory } from '../../domain/execution/execution-session.js';
import {
  NON_INTERACTIVE_ENVIRONMENT,
  type NonInteractiveEnvironment,
} from '../../domain/execution/non-interactive-environment.js';
import { ChildProcessExecutionSession } from './child-process-execution-session.js';
import type { SpoolSettings } from './stream-spool.js';

export interface ChildProcessSessionFactoryOptions {
  /** Required: every command is launched through it (the composition root supplies the sandbox, or none if off). */
  readonly confinement: CommandConfinement;
  /** Commands running at once per session (default 1, like the seed). */
  readonly maxProcessesPerSession?: number;
  /** Finished commands kept per session for reading their output (default 50). */
  readonly maxKeptCommands?: number;
  /** Between SIGTERM and SIGKILL when a group is ended (default 500 ms). */
  readonly killGraceMs?: number;
  /** After a leader exits, how long its pipes may stay open before the outcome is final anyway (default 100 ms). */
  readonly outputSettleMs?: number;
  /**
   * The server's environment as the composition root read it at start-up (adapters never read `process.env`); only
   * allowlisted variables (locale, TERM, TZ, TMPDIR) reach commands. Default: none inherited.
   */
  readonly serverEnv?: Readonly<Record<string, string | undefined>>;
  /** PAGER, EDITOR, GIT_TERMINAL_PROMPT... (default `NON_INTERACTIVE_ENVIRONMENT`; the policy file may change them). */
  readonly nonInteractive?: NonInteractiveEnvironment;
  readonly now?: () => number;
  readonly newCommandId?: () => string;
  /**
   * Where each command's whole output is kept, so it can be read back by byte range after the result gave only its
   * head and tail (a directory of the server, outside the workspace). Without it only the capped capture is kept.
   */
  readonly spool?: SpoolSettings;
}

/** Creates execution sessions that run commands as child processes in their own process groups. */
export class ChildProcessSessionFactory implements ExecutionSessionFactory {
  private readonly settings: Required<Omit<ChildProcessSessionFactoryOptions, 'spool'>> &
    Pick<ChildProcessSessionFactoryOptions, 'spool'>;

  constructor(options: ChildProcessSessionFactoryOptions) {
    this.settings = {
      confinement: options.confinement,
      maxProcessesPerSession: options.maxProcessesPerSession ?? 1,
      maxKeptCommands: options.maxKeptCommands ?? 50,
      killGraceMs: options.killGraceMs ?? 500,
      outputSettleMs: options.outputSettleMs ?? 100,
      serverEnv: { ...options.serverEnv },
      nonInteractive: options.nonInteractive ?? NON_INTERACTIVE_ENVIRONMENT,
      now: options.now ?? Date.now,
      newCommandId: options.newCommandId ?? randomUUID,
      ...(options.spool === undefined ? {} : { spool: options.spool }),
    };
  }

  create(options: { id: string; cwd: string }): ExecutionSession {
    const { maxProcessesPerSession, ...settings } = this.settings;
    return new ChildProcessExecutionSession({ ...settings, ...options, maxProcesses: maxProcessesPerSession });
  }
}
