import type { Logger } from '../logging/logger.js';
import type { SecretRedactor } from '../terminal/secret-redactor.js';

/** One finished `tools/call`, as the catalog saw it. */
export interface ToolCallEvent {
  readonly tool: string;
  readonly arguments: Record<string, unknown> | undefined;
  /** The result's structured content; undefined when the call threw (an unknown tool, a server fault). */
  readonly structured: Record<string, unknown> | undefined;
  readonly isError: boolean;
  readonly durationMs: number;
  /** The error code of a call that threw instead of answering. */
  readonly thrownCode?: string;
}

/** Port: told of every tool call once it has answered. */
export interface ToolCallObserver {
  toolCalled(event: ToolCallEvent): void;
}

/** A command longer than this is cut in the log line: the receipt keeps it whole. */
const MAX_LOGGED_COMMAND_CHARS = 500;

/**
 * One structured log line per tool call (issue 23): tool, verdict and rule of the policy, status, exit code or error
 * code, duration, and the command, with the server's secrets and secret-looking assignments removed by the same
 * `SecretRedactor` as receipts. Logged at `info`, so `LOG_LEVEL=warn` turns it off. Arguments other than the command
 * (stdin text, file paths) are never logged.
 */
export class ToolCallLog implements ToolCallObserver {
  constructor(
    private readonly logger: Logger,
    private readonly redactor: SecretRedactor,
  ) {}

  toolCalled(event: ToolCallEvent): void {
    this.logger.info('tool call', toolCallFields(event, this.redactor));
  }
}

/** The fields of the log line; absent facts are left out rather than logged as null. */
export function toolCallFields(event: ToolCallEvent, redactor: SecretRedactor): Record<string, unknown> {
  const structured = event.structured ?? {};
  const policy = asRecord(structured.policy);
  const command = stringField(structured.command) ?? stringField(event.arguments?.command);
  const fields: Record<string, unknown> = {
    tool: event.tool,
    verdict: stringField(policy?.verdict) ?? stringField(structured.verdict),
    rule: stringField(policy?.matched_rule) ?? stringField(structured.matched_rule),
    status: stringField(structured.status),
    exit: typeof structured.exit_code === 'number' ? structured.exit_code : undefined,
    signal: typeof structured.signal === 'number' ? structured.signal : undefined,
    error: event.thrownCode ?? (event.isError ? stringField(structured.code) : undefined),
    is_error: event.isError,
    duration_ms: Math.round(event.durationMs),
    command: command === undefined ? undefined : truncate(redactor.redact(command)),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function truncate(text: string): string {
  return text.length <= MAX_LOGGED_COMMAND_CHARS ? text : `${text.slice(0, MAX_LOGGED_COMMAND_CHARS)}…`;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
