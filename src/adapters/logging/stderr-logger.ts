import type { Logger } from '../../application/logging/logger.js';

type Level = 'info' | 'warn' | 'error';
const LEVEL_ORDER: Record<Level, number> = { info: 0, warn: 1, error: 2 };

/** JSON-lines diagnostics on stderr (stdout belongs to the protocol). Stacks are logged here, never sent to clients. */
export class StderrLogger implements Logger {
  constructor(
    private readonly minimum: Level = 'info',
    private readonly stream: NodeJS.WritableStream = process.stderr,
  ) {}

  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', message, fields);
  }

  private write(level: Level, message: string, fields: Record<string, unknown> | undefined): void {
    if (LEVEL_ORDER[level] < LEVEL_ORDER[this.minimum]) return;
    this.stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
  }
}
