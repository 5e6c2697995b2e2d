import * as headlessModule from '@xterm/headless';
import type { ScreenSnapshot, ScrollbackSlice, TerminalSize } from '../../domain/execution/interactive-terminal.js';

/**
 * The package is CommonJS without named exports Node can detect: under Node's ESM loader the namespace holds only
 * `default`; under a CommonJS loader (the tests' ts-jest) the namespace is the exports themselves.
 */
const headless = (headlessModule as unknown as { default?: typeof headlessModule }).default ?? headlessModule;

/** Lines kept above the screen; more between two reads are reported as dropped. */
const SCROLLBACK_LINES = 2000;

/**
 * The screen of a terminal session, kept by xterm.js's headless emulator (the same parser as the UI's xterm.js):
 * what a person would see, with the cursor, and the lines that scrolled off the top since the last read.
 */
export class HeadlessScreen {
  private readonly terminal: headlessModule.Terminal;
  /** Absolute index (scrolled-off lines counted from the start) of the first scrollback line not yet returned. */
  private readUpTo = 0;
  /** Lines trimmed from the top of the scrollback because it was full (xterm keeps SCROLLBACK_LINES). */
  private trimmed = 0;

  constructor(size: TerminalSize, replyToProgram: (data: string) => void) {
    this.terminal = new headless.Terminal({
      cols: size.cols,
      rows: size.rows,
      scrollback: SCROLLBACK_LINES,
      allowProposedApi: true,
    });
    // Answers to the program's queries (cursor position, device attributes), which a real terminal sends back.
    this.terminal.onData(replyToProgram);
    this.terminal.onLineFeed(() => {
      const normal = this.terminal.buffer.normal;
      if (
        this.terminal.buffer.active.type === 'normal' &&
        normal.baseY >= SCROLLBACK_LINES &&
        normal.cursorY === this.terminal.rows - 1
      )
        this.trimmed += 1;
    });
  }

  /** Resolves once the bytes are parsed into the screen. */
  write(data: Uint8Array): Promise<void> {
    return new Promise((resolve) => this.terminal.write(data, resolve));
  }

  resize(size: TerminalSize): void {
    this.terminal.resize(size.cols, size.rows);
  }

  snapshot(): ScreenSnapshot {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row += 1)
      lines.push(buffer.getLine(buffer.baseY + row)?.translateToString(true) ?? '');
    return {
      cols: this.terminal.cols,
      rows: this.terminal.rows,
      lines,
      cursor: { x: buffer.cursorX, y: buffer.cursorY },
      alternateScreen: buffer.type === 'alternate',
      applicationCursorKeys: this.terminal.modes.applicationCursorKeysMode,
    };
  }

  /** The normal screen's lines that scrolled off since the previous call. */
  takeScrollback(): ScrollbackSlice {
    const normal = this.terminal.buffer.normal;
    const end = this.trimmed + normal.baseY;
    const from = Math.max(this.readUpTo, this.trimmed);
    const dropped = from > this.readUpTo;
    const lines: string[] = [];
    for (let index = from; index < end; index += 1)
      lines.push(normal.getLine(index - this.trimmed)?.translateToString(true) ?? '');
    this.readUpTo = end;
    return { lines, dropped };
  }

  /** The screen as one text, to match a pattern against. */
  text(): string {
    return this.snapshot().lines.join('\n');
  }

  dispose(): void {
    this.terminal.dispose();
  }
}
