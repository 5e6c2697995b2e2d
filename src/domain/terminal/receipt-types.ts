import type { ConfinementSummary } from '../execution/command-confinement.js';
import type { PolicyMode, RiskLevel } from '../policy/policy-types.js';

/** The policy part of plans and receipts, in the seed's wire form plus our `verdict` and `matched_rule`. */
export interface PolicySummary {
  readonly allowed: boolean;
  readonly risk: RiskLevel;
  readonly requires_approval: boolean;
  readonly reasons: readonly string[];
  readonly argv: readonly string[];
  readonly verdict: 'allow' | 'deny' | 'approval_required';
  readonly matched_rule: string;
}

/** Ours: one output stream as a whole, and what the receipt's text of it leaves out. */
export interface OutputDigest {
  /** Bytes the command wrote. */
  readonly total_bytes: number;
  /** Bytes kept and readable as a resource (all of them unless the spool's cap was reached). */
  readonly kept_bytes: number;
  /** SHA-256 (hex) of the kept bytes: the resource's digest. */
  readonly sha256: string;
  /** Bytes the receipt's text does not show (between its head and tail, and past what was kept). */
  readonly omitted_bytes: number;
}

export type ReceiptStatus = 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

/**
 * Receipt schema 1.0 (seed §3.2) plus `command_id`. It is a document, so its fields keep their wire names: the
 * signature covers exactly these fields, serialised canonically. `command`, `policy`, `stdout` and `stderr` are
 * redacted; `command_sha256` is the digest of the original command.
 */
export interface UnsignedReceipt {
  readonly schema_version: '1.0';
  readonly id: string;
  readonly plan_id: string;
  readonly session_id: string;
  readonly command_id: string;
  readonly command: string;
  readonly command_sha256: string;
  readonly cwd: string;
  readonly mode: PolicyMode;
  readonly risk: RiskLevel;
  readonly approved: boolean;
  readonly policy: PolicySummary;
  readonly status: ReceiptStatus;
  readonly started_at: string;
  readonly finished_at: string;
  readonly duration_ms: number;
  readonly exit_code: number | null;
  /** Number of the signal that ended the process (seed: `-returncode`), or null. */
  readonly signal: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly output_truncated: boolean;
  /**
   * Ours, additive: the OS confinement the command ran in. Signed when present; absent (and so outside the signed
   * payload) in receipts of servers without it, the seed's included, which therefore verify exactly as before.
   */
  readonly confinement?: ConfinementSummary;
  /**
   * Ours, additive: the run-on-open paths (workspace-relative) added, removed or changed while the command ran, as the
   * sandbox compared them in a writable workspace (docs/security.md). Empty: none changed. Absent: not compared.
   */
  readonly run_on_open_changes?: readonly string[];
  /**
   * Ours, additive (issue 24): per stream, the size and digest of the whole output. When `omitted_bytes` is not 0,
   * `stdout`/`stderr` hold the head and the tail around a `[... N bytes omitted ...]` line.
   */
  readonly output?: { readonly stdout: OutputDigest; readonly stderr: OutputDigest };
  /**
   * Ours, additive (issue 24): a terminal session's final size, what was sent to it (redacted) and the SHA-256 and
   * byte count of everything it printed, bytes beyond the output cap included (stdout keeps the capped transcript).
   */
  readonly terminal?: {
    readonly cols: number;
    readonly rows: number;
    readonly input: string;
    readonly output_sha256: string;
    readonly output_bytes: number;
  };
}

export interface ExecutionReceipt extends UnsignedReceipt {
  /** HMAC-SHA256 (hex) over the canonical JSON of every other field. */
  readonly signature: string;
}
