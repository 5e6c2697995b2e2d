import type { RunningCommand } from '../../domain/execution/execution-session.js';
import { isLiveStatus, type CommandOutcome } from '../../domain/execution/execution-types.js';
import type { TerminalTranscript } from '../../domain/execution/interactive-terminal.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import type { ReceiptAuditLog } from '../../domain/terminal/receipt-audit-log.js';
import type { ReceiptSigner } from '../../domain/terminal/receipt-signer.js';
import type { ExecutionReceipt, ReceiptStatus } from '../../domain/terminal/receipt-types.js';
import type { Logger } from '../logging/logger.js';
import { summarizePolicy } from './policy-summary.js';
import type { SecretRedactor } from './secret-redactor.js';
import type { SessionLedger } from './session-ledger.js';

export interface ReceiptRecorderOptions {
  readonly signer: ReceiptSigner;
  readonly redactor: SecretRedactor;
  /** AUDIT_LOG, when configured. */
  readonly auditLog: ReceiptAuditLog | undefined;
  readonly logger: Logger;
  /** Number of a signal name on this platform (`SIGTERM` -> 15), null when unknown. */
  readonly signalNumber: (name: string) => number | null;
  readonly newReceiptId: () => string;
}

/**
 * Turns every finished command into a signed receipt (seed `AuditLog.finalize`), whether or not a caller is still
 * waiting: commands started in the background get their receipt too. Updates the plan's final status.
 */
export class ReceiptRecorder {
  constructor(private readonly options: ReceiptRecorderOptions) {}

  /** Resolves with the receipt once the command has finished (and records it in the ledger). */
  track(ledger: SessionLedger, plan: TerminalPlan, command: RunningCommand): Promise<ExecutionReceipt> {
    const receipt = command.finished().then((outcome) => this.record(ledger, plan, command, outcome));
    ledger.commandStarted(command.id, receipt);
    return receipt;
  }

  private record(ledger: SessionLedger, plan: TerminalPlan, command: RunningCommand, outcome: CommandOutcome): ExecutionReceipt {
    const { signer, redactor } = this.options;
    const status = finalStatus(outcome);
    plan.finish(status);
    const receipt = signer.sign({
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
      stdout: redactor.redact(command.read('stdout', 0, plan.limits.maxOutputBytes).text),
      stderr: redactor.redact(command.read('stderr', 0, plan.limits.maxOutputBytes).text),
      output_truncated: outcome.truncated,
      ...(plan.confinement ? { confinement: plan.confinement } : {}),
      ...(outcome.runOnOpenChanges ? { run_on_open_changes: outcome.runOnOpenChanges.map((change) => redactor.redact(change)) } : {}),
      ...(command.terminal ? { terminal: terminalFacts(command.terminal.transcript(), redactor) } : {}),
    });
    ledger.addReceipt(receipt);
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

function terminalFacts(transcript: TerminalTranscript, redactor: SecretRedactor): NonNullable<ExecutionReceipt['terminal']> {
  const { cols, rows, input, outputSha256, outputBytes } = transcript;
  return { cols, rows, input: redactor.redact(input), output_sha256: outputSha256, output_bytes: outputBytes };
}

function finalStatus(outcome: CommandOutcome): ReceiptStatus {
  // `finished()` only resolves with a final outcome; a live status here would be an adapter bug, reported as failed.
  return isLiveStatus(outcome.status) ? 'failed' : outcome.status;
}
