import type { RunningCommand } from '../../domain/execution/execution-session.js';
import { isLiveStatus, type CommandOutcome } from '../../domain/execution/execution-types.js';
import type { TerminalTranscript } from '../../domain/execution/interactive-terminal.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import type { ReceiptAuditLog } from '../../domain/terminal/receipt-audit-log.js';
import type { ReceiptSigner } from '../../domain/terminal/receipt-signer.js';
import type {
  ExecutionReceipt,
  OutputDigest,
  ReceiptStatus,
  UnsignedReceipt,
} from '../../domain/terminal/receipt-types.js';
import type { Logger } from '../logging/logger.js';
import type { OutputArchive } from './output-archive.js';
import { viewOutput, type OutputBudget, type StreamView } from './output-view.js';
import { summarizePolicy } from './policy-summary.js';
import type { SecretRedactor } from './secret-redactor.js';
import type { TerminalSession } from '../../domain/terminal/terminal-session.js';

export interface ReceiptRecorderOptions {
  readonly signer: ReceiptSigner;
  readonly redactor: SecretRedactor;
  /** AUDIT_LOG, when configured. */
  readonly auditLog: ReceiptAuditLog | undefined;
  readonly logger: Logger;
  /** Number of a signal name on this platform (`SIGTERM` -> 15), null when unknown. */
  readonly signalNumber: (name: string) => number | null;
  readonly newReceiptId: () => string;
  /** Keeps each finished command's whole output readable (absent: only the receipt's text remains). */
  readonly archive?: OutputArchive;
  /** How much output a receipt shows when the caller chose nothing (OUTPUT_RESULT_BYTES, OUTPUT_RESULT_LINES). */
  readonly outputBudget?: OutputBudget;
}

/** What the caller chose for one command's receipt: its output budget, and who may read the whole output later. */
export interface RecordingOptions {
  readonly budget?: Partial<OutputBudget>;
  readonly owner?: string;
}

/**
 * Turns every finished command into a signed receipt (seed `AuditLog.finalize`), whether or not a caller is still
 * waiting: commands started in the background get their receipt too. Updates the plan's final status.
 */
export class ReceiptRecorder {
  constructor(private readonly options: ReceiptRecorderOptions) {}

  /** The receipts' redaction, for other text about a command that leaves the server (progress messages). */
  redact(text: string): string {
    return this.options.redactor.redact(text);
  }

  /** Resolves with the receipt once the command has finished (and its terminal session has recorded it). */
  track(
    terminal: TerminalSession,
    plan: TerminalPlan,
    command: RunningCommand,
    recording: RecordingOptions = {},
  ): Promise<ExecutionReceipt> {
    const receipt = command.finished().then(async (outcome) => {
      const fields = this.fieldsOf(plan, command, outcome);
      const views = await this.views(command, recording, fields);
      return this.record(terminal, plan, command, outcome, fields, views, recording.owner);
    });
    terminal.awaitReceipt(command.id, receipt);
    return receipt;
  }

  /**
   * Head and tail of the whole output within the budget (issue 24), and the output archived for reading by range.
   * Without a budget, or when the kept output cannot be read, the receipt shows the capped capture as before.
   */
  private async views(
    command: RunningCommand,
    recording: RecordingOptions,
    fields: ReceiptFields,
  ): Promise<Record<'stdout' | 'stderr', StreamView> | undefined> {
    const stdout = command.capturedOutput?.('stdout');
    const stderr = command.capturedOutput?.('stderr');
    const defaults = this.options.outputBudget;
    if (stdout === undefined || stderr === undefined || defaults === undefined) return undefined;
    const budget = { ...defaults, ...definedOnly(recording.budget ?? {}) };
    // The budget is the whole receipt's: the output gets what its other fields leave.
    const maxBytes = Math.max(MIN_OUTPUT_BYTES, budget.maxBytes - overheadOf(fields));
    try {
      return await viewOutput({ stdout, stderr }, { ...budget, maxBytes });
    } catch (error) {
      this.options.logger.warn('could not read the kept output of a command; its receipt shows the captured output', {
        commandId: command.id,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }

  /** Every field of the receipt but the output's. */
  private fieldsOf(plan: TerminalPlan, command: RunningCommand, outcome: CommandOutcome): ReceiptFields {
    const { signer, redactor } = this.options;
    const status = finalStatus(outcome);
    return {
      schema_version: '1.0',
      id: this.options.newReceiptId(),
      plan_id: plan.id,
      session_id: plan.sessionId,
      command_id: command.id,
      command: redactor.redact(plan.command),
      command_sha256: signer.digest(plan.command),
      cwd: plan.cwd,
      mode: plan.mode,
      risk: plan.decision.risk,
      approved: plan.approvedAt !== null || !plan.requiresApproval,
      policy: redactor.redactDeep(summarizePolicy(plan.decision)),
      status,
      started_at: outcome.startedAt,
      finished_at: outcome.finishedAt ?? outcome.startedAt,
      duration_ms: outcome.durationMs ?? 0,
      exit_code: outcome.exitCode,
      signal: outcome.signal === null ? null : this.options.signalNumber(outcome.signal),
      ...(plan.confinement ? { confinement: plan.confinement } : {}),
      ...(outcome.runOnOpenChanges
        ? { run_on_open_changes: outcome.runOnOpenChanges.map((change) => redactor.redact(change)) }
        : {}),
      ...(command.terminal ? { terminal: terminalFacts(command.terminal.transcript(), redactor) } : {}),
    };
  }

  private record(
    terminal: TerminalSession,
    plan: TerminalPlan,
    command: RunningCommand,
    outcome: CommandOutcome,
    fields: ReceiptFields,
    views: Record<'stdout' | 'stderr', StreamView> | undefined,
    owner?: string,
  ): ExecutionReceipt {
    const { signer, redactor } = this.options;
    // The seed's field order: the output after `signal`, then our additions.
    const { confinement, run_on_open_changes: runOnOpenChanges, terminal: terminalSession, ...seedFields } = fields;
    const receipt = signer.sign({
      ...seedFields,
      stdout: redactor.redact(views?.stdout.text ?? command.read('stdout', 0, plan.limits.maxOutputBytes).text),
      stderr: redactor.redact(views?.stderr.text ?? command.read('stderr', 0, plan.limits.maxOutputBytes).text),
      output_truncated:
        outcome.truncated || (views !== undefined && (views.stdout.omittedBytes > 0 || views.stderr.omittedBytes > 0)),
      ...(confinement ? { confinement } : {}),
      ...(runOnOpenChanges ? { run_on_open_changes: runOnOpenChanges } : {}),
      ...(views ? { output: { stdout: digestOf(views.stdout), stderr: digestOf(views.stderr) } } : {}),
      ...(terminalSession ? { terminal: terminalSession } : {}),
    });
    const { archive } = this.options;
    const stdout = command.capturedOutput?.('stdout');
    const stderr = command.capturedOutput?.('stderr');
    if (views && archive && stdout && stderr) {
      const kept = (view: StreamView): { keptBytes: number; sha256: string } => ({
        keptBytes: view.keptBytes,
        sha256: view.sha256,
      });
      archive.keep(plan.sessionId, command.id, { stdout, stderr }, owner, {
        stdout: kept(views.stdout),
        stderr: kept(views.stderr),
      });
    } else {
      command.discardOutput?.();
    }
    terminal.finish(plan, receipt);
    this.archive(receipt);
    return receipt;
  }

  private archive(receipt: ExecutionReceipt): void {
    this.options.auditLog?.append(receipt).catch((error: unknown) => {
      this.options.logger.warn('could not append the receipt to the audit log', {
        receiptId: receipt.id,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }
}

type ReceiptFields = Omit<UnsignedReceipt, 'stdout' | 'stderr' | 'output_truncated' | 'output'>;

/** Output shown whatever the other fields take (a very long command line). */
const MIN_OUTPUT_BYTES = 512;
/** The largest digest of one stream, and room for the two `[... N bytes omitted ...]` markers. */
const DIGEST_ALLOWANCE: OutputDigest = {
  total_bytes: Number.MAX_SAFE_INTEGER,
  kept_bytes: Number.MAX_SAFE_INTEGER,
  sha256: '0'.repeat(64),
  omitted_bytes: Number.MAX_SAFE_INTEGER,
};
const MARKERS_ALLOWANCE = 2 * '\\n[... 9007199254740991 bytes omitted ...]\\n'.length;

/** Bytes of the receipt's JSON other than the output text: its fields, empty output, digests, signature. */
function overheadOf(fields: ReceiptFields): number {
  const empty = {
    ...fields,
    stdout: '',
    stderr: '',
    output_truncated: false,
    output: { stdout: DIGEST_ALLOWANCE, stderr: DIGEST_ALLOWANCE },
    signature: '0'.repeat(64),
  };
  return Buffer.byteLength(JSON.stringify(empty)) + MARKERS_ALLOWANCE;
}

function digestOf(view: StreamView): OutputDigest {
  return {
    total_bytes: view.totalBytes,
    kept_bytes: view.keptBytes,
    sha256: view.sha256,
    omitted_bytes: view.omittedBytes,
  };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function terminalFacts(
  transcript: TerminalTranscript,
  redactor: SecretRedactor,
): NonNullable<ExecutionReceipt['terminal']> {
  const { cols, rows, input, outputSha256, outputBytes } = transcript;
  return { cols, rows, input: redactor.redact(input), output_sha256: outputSha256, output_bytes: outputBytes };
}

function finalStatus(outcome: CommandOutcome): ReceiptStatus {
  // `finished()` only resolves with a final outcome; a live status here would be an adapter bug, reported as failed.
  return isLiveStatus(outcome.status) ? 'failed' : outcome.status;
}
