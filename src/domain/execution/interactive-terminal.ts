/** Columns and rows of a terminal session's screen. */
export interface TerminalSize {
  readonly cols: number;
  readonly rows: number;
}

/** The rendered screen of a terminal session, as text. */
export interface ScreenSnapshot {
  readonly cols: number;
  readonly rows: number;
  /** One string per row, trailing blanks trimmed. */
  readonly lines: readonly string[];
  /** Zero-based, on the screen (not in the scrollback). */
  readonly cursor: { readonly x: number; readonly y: number };
  /** Full-screen programs (less, vim) switch to the alternate screen, which has no scrollback. */
  readonly alternateScreen: boolean;
  /** The program asked for application cursor keys (DECCKM): arrows are sent as ESC O A, not ESC [ A. */
  readonly applicationCursorKeys: boolean;
}

/** Lines that scrolled off the top of the normal screen since the previous read. */
export interface ScrollbackSlice {
  readonly lines: readonly string[];
  /** More lines scrolled off than the emulator keeps: the oldest of them are missing. */
  readonly dropped: boolean;
}

/**
 * What a read or a send waits for before answering (the first that happens), bounded by `timeoutMs`:
 * a regular expression on the screen or the output, the screen quiet for `quietMs`, or the end of the process.
 */
export interface WaitCondition {
  readonly pattern?: RegExp;
  readonly quietMs?: number;
  readonly exit?: boolean;
  readonly timeoutMs: number;
}

export type WaitResult = 'pattern' | 'quiet' | 'exit' | 'timeout' | 'none';

/** Facts of a terminal session for its receipt: the size it ended with, what was sent, the digest of all output. */
export interface TerminalTranscript {
  readonly cols: number;
  readonly rows: number;
  /** Everything the model sent, in order (keys as the bytes they became). */
  readonly input: string;
  /** SHA-256 (hex) of every byte the terminal produced, including bytes beyond the output cap. */
  readonly outputSha256: string;
  readonly outputBytes: number;
}

/**
 * A command running on a pseudo-terminal inside its confinement, with a headless emulator keeping its screen. What is
 * written to it is typed at the terminal (the line discipline turns Ctrl-C into SIGINT); it is never parsed by us.
 */
export interface InteractiveTerminal {
  size(): TerminalSize;
  /** Types `data` at the terminal. Throws when the command has ended. */
  send(data: string): Promise<void>;
  /** Resizes the terminal (the program gets SIGWINCH) and the screen. */
  resize(size: TerminalSize): Promise<void>;
  screen(): ScreenSnapshot;
  /** The scrollback since the previous call (each line is returned once). */
  takeScrollback(): ScrollbackSlice;
  /** Resolves when the condition is met, the timeout passes or `signal` aborts ('timeout'). */
  waitFor(condition: WaitCondition, signal?: AbortSignal): Promise<WaitResult>;
  transcript(): TerminalTranscript;
}
