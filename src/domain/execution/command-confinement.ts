import type { LaunchForm } from '../policy/policy-types.js';

/**
 * What a command is confined to, as plans and receipts report it (wire names, since it is part of signed receipts).
 * `sandbox: "off"` means no OS boundary at all (TERM_MCP_SANDBOX=off): only the policy stands between the command and
 * the server user's account.
 */
export type ConfinementSummary =
  | { readonly sandbox: 'off' }
  | {
      readonly sandbox: 'bubblewrap';
      /** Everything else is read-only (or unreadable). */
      readonly writable_roots: readonly string[];
      /**
       * `off`: loopback only. `filtered` (ALLOW_NETWORK): only the hosts of `allowed_domains`, through the server's
       * proxy. (`on`, the host network unfiltered, appears only in receipts signed before the proxy existed.)
       */
      readonly network: 'off' | 'filtered';
      readonly allowed_domains?: readonly string[];
      readonly limits: {
        readonly memory_bytes: number;
        readonly processes: number;
        readonly file_size_bytes: number;
        readonly cpu_seconds: number;
      };
    };

/** A launch before confinement: what the policy allowed, where, with which (already scrubbed) environment. */
export interface LaunchRequest {
  readonly launch: LaunchForm;
  /** Absolute, inside the workspace. */
  readonly cwd: string;
  readonly environment: Readonly<Record<string, string>>;
}

/** The program to spawn instead: the confinement's launcher with the original command inside it. */
export interface ConfinedLaunch {
  readonly file: string;
  readonly args: readonly string[];
  /** Where to spawn the launcher (the command itself runs in the request's cwd inside the confinement). */
  readonly cwd: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Bytes the launcher reads on descriptor 3 while it sets the confinement up (bubblewrap's seccomp program). */
  readonly setupInput?: Uint8Array;
  /**
   * When set, the launcher reports its set-up on descriptor 4; given that report once it has exited, this says whether
   * the set-up completed (the command ran). A launcher that failed before says why on its stderr.
   */
  readonly setupCompleted?: (report: string) => boolean;
  /**
   * Called once, when the launcher has exited (and with it everything it confined): releases what the confinement set
   * up for this command and returns the workspace-relative run-on-open paths (files editors, agent hosts and git run
   * on open) that changed while it ran, sorted. Absent where the workspace was not writable or nothing is compared.
   */
  readonly finish?: () => readonly string[];
}

/** Whether commands can be confined here; when not, why and how to fix it. */
export type ConfinementReadiness =
  { readonly ready: true } | { readonly ready: false; readonly reason: string; readonly fix: string };

/**
 * Port: turns each command launch into a confined one, one confinement per command, so that what a program does once
 * it runs (not only what its command line says) stays inside the workspace, the network setting and the limits.
 * Throws `SandboxUnavailable` when the confinement cannot be set up: callers must refuse the command (fail closed).
 */
export interface CommandConfinement {
  confine(request: LaunchRequest): ConfinedLaunch;
  /** What every command launched through `confine` is confined to. */
  summary(): ConfinementSummary;
  /** Starts a probe confinement once and remembers the answer (start-up log, `term-mcp doctor`). */
  readiness(): ConfinementReadiness;
}
