// The output panel: a real terminal (xterm.js, served by this server from its npm package under ../vendor/), so
// colours and cursor movement render as they would in a shell. Commands run on pipes, not a PTY, so "\n" is turned
// into "\r\n" (convertEol). When xterm.js cannot be loaded the output falls back to plain text without escapes.

import { stripAnsi } from './ansi.js';

const THEME = {
  background: '#0f1720',
  foreground: '#d7dee6',
  cursor: '#0f1720',
  selectionBackground: '#2d4a5e',
  black: '#1b2631',
  red: '#f07178',
  green: '#9ccc65',
  yellow: '#ffcb6b',
  blue: '#6cb6ff',
  magenta: '#c792ea',
  cyan: '#5fd4d0',
  white: '#d7dee6',
  brightBlack: '#6b7b8c',
  brightRed: '#ff8a8f',
  brightGreen: '#b5e07e',
  brightYellow: '#ffd98a',
  brightBlue: '#8cc8ff',
  brightMagenta: '#dab0f5',
  brightCyan: '#86e5e1',
  brightWhite: '#ffffff',
};

const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

export async function createTerminalView(host) {
  try {
    const [{ Terminal }, { FitAddon }] = await Promise.all([
      import('../vendor/xterm.mjs'),
      import('../vendor/addon-fit.mjs'),
    ]);
    return new XtermView(host, Terminal, FitAddon);
  } catch {
    return new PlainView(host);
  }
}

class XtermView {
  constructor(host, Terminal, FitAddon) {
    this.kind = 'xterm';
    this.terminal = new Terminal({
      convertEol: true,
      disableStdin: true,
      cursorBlink: false,
      cursorInactiveStyle: 'none',
      fontFamily: 'ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, monospace',
      fontSize: 13,
      lineHeight: 1.25,
      scrollback: 5000,
      theme: THEME,
    });
    this.atLineStart = true;
    this.fit = new FitAddon();
    this.terminal.loadAddon(this.fit);
    this.terminal.open(host);
    this.terminal.write('\x1b[?25l');
    this.refit();
    new ResizeObserver(() => this.refit()).observe(host);
  }

  refit() {
    try {
      this.fit.fit();
    } catch {
      // Not laid out yet (hidden): fitted again on the next resize.
    }
  }

  write(text) {
    if (text === '') return;
    this.terminal.write(text);
    this.atLineStart = text.endsWith('\n');
  }

  /** A dim line of our own (the command about to run, how it ended), always on a line of its own. */
  note(text) {
    this.terminal.write(`${RESET}\r\x1b[K${DIM}${text}${RESET}\r\n`);
    this.atLineStart = true;
  }

  /** Ends a command's output: back to column 0, colours reset, whatever the command left behind. */
  endOfOutput() {
    this.terminal.write(this.atLineStart ? RESET : `${RESET}\r\n`);
    this.atLineStart = true;
  }

  clear() {
    this.terminal.reset();
    this.terminal.write('\x1b[?25l');
    this.atLineStart = true;
  }
}

class PlainView {
  constructor(host) {
    this.kind = 'plain';
    this.pre = document.createElement('pre');
    this.pre.className = 'plain-output';
    host.append(this.pre);
  }

  write(text) {
    this.pre.append(stripAnsi(text));
    this.pre.scrollTop = this.pre.scrollHeight;
  }

  note(text) {
    const line = document.createElement('span');
    line.className = 'note';
    line.textContent = `${text}\n`;
    this.pre.append(line);
  }

  endOfOutput() {
    if (!this.pre.textContent.endsWith('\n') && this.pre.textContent !== '') this.pre.append('\n');
  }

  clear() {
    this.pre.replaceChildren();
  }

  refit() {}
}
