import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI_PATH } from './workspace';

export interface JsonRpcMessage {
  jsonrpc: string;
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  method?: string;
}

/**
 * Drives a real `term-mcp stdio` child with raw JSON-RPC lines: what a client that is not the SDK would send.
 * Every stdout line must be a JSON-RPC message; anything else is recorded in `strayStdout` for assertions.
 */
export class StdioPeer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: JsonRpcMessage[] = [];
  readonly strayStdout: string[] = [];
  stderr = '';
  private buffer = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  /** `launcher`: a command that runs the server (e.g. setpriv to drop to another user); none by default. */
  constructor(env: Record<string, string>, args: string[] = ['stdio'], launcher: string[] = []) {
    const [file = process.execPath, ...prefix] = [...launcher, ...(launcher.length > 0 ? [process.execPath] : [])];
    this.child = spawn(file, [...prefix, CLI_PATH, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  sendRaw(line: string): void {
    this.child.stdin.write(line);
  }

  /** Sends a request and waits for the response with the same id (among the messages that arrive after it is sent). */
  async request(
    message: { id: string | number } & Record<string, unknown>,
    timeoutMs = 10_000,
  ): Promise<JsonRpcMessage> {
    const since = this.messages.length;
    this.send({ jsonrpc: '2.0', ...message });
    return this.waitFor((m) => m.id === message.id, timeoutMs, since);
  }

  /**
   * Waits for a message matching `predicate` among those received from index `since` on (a test sharing the server
   * with others passes the count it started at, so it never matches an earlier test's answer).
   */
  async waitFor(
    predicate: (message: JsonRpcMessage) => boolean,
    timeoutMs = 10_000,
    since = 0,
  ): Promise<JsonRpcMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(since).find(predicate);
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out waiting for a message; stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Closes stdin (EOF) and waits for the exit code. */
  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private onStdout(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      try {
        const parsed = JSON.parse(line) as JsonRpcMessage;
        if (parsed && parsed.jsonrpc === '2.0') this.messages.push(parsed);
        else this.strayStdout.push(line);
      } catch {
        this.strayStdout.push(line);
      }
      newline = this.buffer.indexOf('\n');
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export function modern(
  method: string,
  id: string | number,
  params: Record<string, unknown> = {},
): { id: string | number; method: string; params: Record<string, unknown> } {
  return { id, method, params: { ...params, _meta: MODERN_META } };
}
