import { createHash } from 'node:crypto';
import type {
  InteractiveTerminal,
  ScreenSnapshot,
  ScrollbackSlice,
  TerminalSize,
  TerminalTranscript,
  WaitCondition,
  WaitResult,
} from '../../domain/execution/interactive-terminal.js';
import { HeadlessScreen } from './headless-screen.js';
import { resizeTerminal } from './pty-launch.js';

/** The running command underneath: its stdin is the terminal's keyboard, its stdout the terminal's output. */
export interface TerminalProcess {
  readonly pid: number | undefined;
  writeInput(data: string): Promise<void>;
  finished(): Promise<unknown>;
}

/** Input kept for the receipt: beyond this, the rest is counted, not kept. */
const MAX_KEPT_INPUT_CHARS = 65_536;

/**
 * A terminal session's terminal: the output of `script` (run inside the sandbox) feeds a headless screen and the
 * output digest; what the model sends is written to `script`'s stdin, which types it at the sandbox's terminal.
 */
export class PtyTerminal implements InteractiveTerminal {
  private readonly screenState: HeadlessScreen;
  private readonly digest = createHash('sha256');
  private outputBytes = 0;
  private input = '';
  private inputDropped = 0;
  private currentSize: TerminalSize;
  private process: TerminalProcess | undefined;
  private ended = false;
  /** Parsing of the output is serial: a wait sees the screen after every byte received so far. */
  private parsed: Promise<void> = Promise.resolve();
  private readonly changeListeners = new Set<() => void>();

  constructor(size: TerminalSize) {
    this.currentSize = size;
    this.screenState = new HeadlessScreen(size, (reply) => void this.process?.writeInput(reply).catch(() => undefined));
  }

  /** Set once the command is spawned. */
  attach(process: TerminalProcess): void {
    this.process = process;
    void process
      .finished()
      .then(() => this.parsed)
      .then(() => {
        this.ended = true;
        this.notify();
      });
  }

  /** Every byte the terminal produced, in order. */
  output(chunk: Buffer): void {
    this.digest.update(chunk);
    this.outputBytes += chunk.length;
    this.parsed = this.parsed.then(() => this.screenState.write(chunk)).then(() => this.notify());
  }

  size(): TerminalSize {
    return this.currentSize;
  }

  async send(data: string): Promise<void> {
    if (!this.process) throw new Error('the terminal has not started');
    await this.process.writeInput(data);
    const room = MAX_KEPT_INPUT_CHARS - this.input.length;
    this.input += data.slice(0, Math.max(0, room));
    this.inputDropped += Math.max(0, data.length - Math.max(0, room));
  }

  async resize(size: TerminalSize): Promise<void> {
    this.currentSize = size;
    await this.parsed;
    this.screenState.resize(size);
    if (this.process?.pid !== undefined && !this.ended) await resizeTerminal(this.process.pid, size);
  }

  screen(): ScreenSnapshot {
    return this.screenState.snapshot();
  }

  takeScrollback(): ScrollbackSlice {
    return this.screenState.takeScrollback();
  }

  async waitFor(condition: WaitCondition, signal?: AbortSignal): Promise<WaitResult> {
    await this.parsed;
    const met = (): WaitResult | undefined => {
      if (condition.pattern && condition.pattern.test(this.screenState.text())) return 'pattern';
      if (condition.exit && this.ended) return 'exit';
      return undefined;
    };
    const now = met();
    if (now) return now;
    if (condition.pattern === undefined && condition.quietMs === undefined && !condition.exit) return 'none';
    return new Promise<WaitResult>((resolve) => {
      let quietTimer: NodeJS.Timeout | undefined;
      const armQuiet = (): void => {
        if (condition.quietMs === undefined) return;
        clearTimeout(quietTimer);
        quietTimer = setTimeout(() => finish('quiet'), condition.quietMs);
      };
      const onChange = (): void => {
        const result = met();
        if (result) finish(result);
        else if (this.ended && !condition.exit) finish('exit');
        else armQuiet();
      };
      const onAbort = (): void => finish('timeout');
      const deadline = setTimeout(() => finish('timeout'), condition.timeoutMs);
      const finish = (result: WaitResult): void => {
        clearTimeout(deadline);
        clearTimeout(quietTimer);
        this.changeListeners.delete(onChange);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      this.changeListeners.add(onChange);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) finish('timeout');
      else if (this.ended) finish('exit');
      else armQuiet();
    });
  }

  transcript(): TerminalTranscript {
    const digest = this.digest.copy().digest('hex');
    const suffix = this.inputDropped > 0 ? `[... ${String(this.inputDropped)} more characters]` : '';
    return { ...this.currentSize, input: this.input + suffix, outputSha256: digest, outputBytes: this.outputBytes };
  }

  private notify(): void {
    for (const listener of [...this.changeListeners]) listener();
  }
}
