/** What the policy says about one command. */
export type PolicyVerdict = 'allow' | 'deny' | 'approval_required';
export type RiskLevel = 'low' | 'medium' | 'high' | 'blocked';
/**
 * Approval modes (APPROVAL_MODE): how strict the default rules are. inspect, confirm and trusted are the seed's;
 * sandboxed lets any readable command line run inside the OS sandbox without approval (docs/security.md).
 */
export type PolicyMode = 'inspect' | 'confirm' | 'trusted' | 'sandboxed';

/** Every mode, in order of the approvals they ask for; the one list zod schemas and the CLI take their values from. */
export const POLICY_MODES = ['inspect', 'confirm', 'trusted', 'sandboxed'] as const satisfies readonly PolicyMode[];

/** How an allowed command is to be launched: as an argv without any shell, or through the fixed shell. */
export type LaunchForm = { kind: 'argv'; argv: readonly string[] } | { kind: 'shell'; script: string };

/** The judgement of one simple command inside the parsed command line. */
export interface PartDecision {
  readonly text: string;
  readonly verdict: PolicyVerdict;
  readonly rule: string;
  readonly reason: string;
}

export interface PolicyDecision {
  readonly verdict: PolicyVerdict;
  readonly risk: RiskLevel;
  /** Human-readable reasons, most important first. */
  readonly reasons: readonly string[];
  /** Identifier of the rule that decided the overall verdict (e.g. `read_only_command`, `shell_injection`). */
  readonly matchedRule: string;
  /** Every simple command found in the line, judged on its own. */
  readonly parts: readonly PartDecision[];
  /** Present when the verdict is not `deny`. */
  readonly launch?: LaunchForm;
  /** Preview facts for the plan (seed `preview`). */
  readonly preview: {
    readonly executable: string | null;
    readonly filesPotentiallyTouched: readonly string[];
    readonly networkRequested: boolean;
    readonly executesProjectCode: boolean;
  };
}

export interface PolicyRequest {
  readonly command: string;
  /** Absolute working directory, already known to be inside the workspace. */
  readonly cwd: string;
}
