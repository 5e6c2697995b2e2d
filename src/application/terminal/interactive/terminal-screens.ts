import { InvalidArgument } from '../../../domain/errors.js';
import type { RunningCommand } from '../../../domain/execution/execution-session.js';
import type { CommandOutcome } from '../../../domain/execution/execution-types.js';
import type {
  InteractiveTerminal,
  ScreenSnapshot,
  ScrollbackSlice,
  TerminalSize,
  WaitCondition,
  WaitResult,
} from '../../../domain/execution/interactive-terminal.js';
import type { CommandLocator, CommandSelector, LocatedCommand } from '../command-locator.js';
import type { SecretRedactor } from '../secret-redactor.js';
import { encodeKeys, type KeyStroke } from './terminal-keys.js';

export interface ScreenRequest extends CommandSelector {
  readonly keys?: readonly KeyStroke[];
  readonly resize?: TerminalSize;
  readonly wait?: WaitCondition;
  readonly signal?: AbortSignal;
}

/** A terminal session's screen after a read or a send. */
export interface ScreenRead {
  readonly sessionId: string;
  readonly commandId: string;
  readonly planId: string | null;
  readonly command: string;
  readonly outcome: CommandOutcome;
  readonly screen: ScreenSnapshot;
  readonly scrollback: ScrollbackSlice;
  readonly waited: WaitResult;
  readonly bytesSent: number;
}

/**
 * `terminal_screen` and `terminal_open`'s answer: types keys at a terminal session, resizes it, waits for what the
 * caller names, and returns the rendered screen and the scrollback since the last read, redacted like all output.
 */
export class TerminalScreens {
  constructor(
    private readonly locator: CommandLocator,
    private readonly redactor: SecretRedactor,
  ) {}

  async interact(request: ScreenRequest): Promise<ScreenRead> {
    const acts = (request.keys?.length ?? 0) > 0 || request.resize !== undefined;
    // Reading works after the terminal ended (its last screen); typing needs a live session.
    const located = acts ? this.locator.find(request) : this.locator.findReadable(request);
    const terminal = terminalOf(located.command);
    if (request.resize) await terminal.resize(request.resize);
    let bytesSent = 0;
    if (request.keys && request.keys.length > 0) {
      const data = encodeKeys(request.keys, terminal.screen().applicationCursorKeys);
      await terminal.send(data);
      bytesSent = Buffer.byteLength(data);
    }
    const waited = request.wait ? await terminal.waitFor(request.wait, request.signal) : 'none';
    return this.view(located, terminal, waited, bytesSent);
  }

  private view(
    located: LocatedCommand,
    terminal: InteractiveTerminal,
    waited: WaitResult,
    bytesSent: number,
  ): ScreenRead {
    const { terminal: session, command } = located;
    const plan = session.planOfCommand(command.id);
    const screen = terminal.screen();
    const scrollback = terminal.takeScrollback();
    return {
      sessionId: session.id,
      commandId: command.id,
      planId: plan?.id ?? null,
      command: this.redactor.redact(plan?.command ?? ''),
      outcome: command.outcome(),
      screen: { ...screen, lines: screen.lines.map((line) => this.redactor.redact(line)) },
      scrollback: { ...scrollback, lines: scrollback.lines.map((line) => this.redactor.redact(line)) },
      waited,
      bytesSent,
    };
  }
}

function terminalOf(command: RunningCommand): InteractiveTerminal {
  if (!command.terminal) {
    throw new InvalidArgument(
      `Command ${command.id} is not a terminal session`,
      { commandId: command.id },
      'Read it with terminal_read and write to it with terminal_input; open a terminal session with terminal_open.',
    );
  }
  return command.terminal;
}
