import type { PolicyDecision } from '../../domain/policy/policy-types.js';
import type { ReceiptSigner } from '../../domain/terminal/receipt-signer.js';

/**
 * The port the CLI drives: what its commands need from the rest of term-mcp, implemented by the composition root
 * (src/main/cli-services.ts), which reads the configuration and resolves each service from the container. The CLI
 * adapter parses arguments and prints; it never builds a server, a policy engine or a signer itself, and never
 * imports another adapter (the STDIO and HTTP runners arrive through `serveStdio` and `serveHttp`).
 */
export interface CliServices {
  /** The package version (`term-mcp version`, `doctor --json`). */
  readonly version: string;
  /** Serves MCP over STDIO with this configuration until stdin ends; resolves with the exit code. */
  serveStdio(request: CliRequest): Promise<number>;
  /** Serves MCP over Streamable HTTP with this configuration until stopped; resolves with the exit code. */
  serveHttp(request: CliRequest): Promise<number>;
  /** Judges a command line with the policy the server would use for this configuration; runs nothing. */
  explain(request: CliRequest, command: string, cwd: string | undefined): Promise<Explanation>;
  /**
   * The signer of the server's receipt key (configured, or the persistent one of the state directory: read, never
   * created); `undefined` when there is none. Rejects with a `ConfigurationError`, or the error of reading the key file.
   */
  receiptSigner(request: CliRequest): Promise<ReceiptSigner | undefined>;
  /** Every check of `term-mcp doctor`, by name, in the order they print. */
  doctorChecks(request: CliRequest, nodeVersion: string): Promise<Readonly<Record<string, DoctorCheck>>>;
}

/** What a command was run with: the environment, the working directory, its checked flags, and where to warn. */
export interface CliRequest {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The command's valued flags (`--workspace DIR` ...), which override the environment. */
  readonly flags: Readonly<Record<string, string>>;
  /** Where warnings go (the CLI's stderr: for `stdio`, stdout is the protocol). */
  readonly stderr: { write(text: string): unknown };
}

export interface Explanation {
  readonly decision: PolicyDecision;
  /** The approval mode the policy judged in. */
  readonly mode: string;
  /** The absolute working directory judged. */
  readonly cwd: string;
}

export interface DoctorCheck {
  readonly ok: boolean;
  readonly detail: string;
  /** A failed required check makes `doctor` exit 1; a failed optional one is a warning. */
  readonly required: boolean;
}
